import Foundation
import Testing
@testable import Hub

@Suite struct TempoAndParameterStateTests {
    func parse(_ yaml: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: yaml, file: "test.yaml", registry: GraphFixtures.registry)
    }

    @Test func aPatchSetsTheTempoAndDefaultsTo120() throws {
        #expect(try parse("version: 1\ntempo: 96.5\n").tempo == 96.5)
        #expect(try parse("version: 1\n").tempo == 120)
    }

    @Test func aTempoOutsideTheRangeIsPositioned() {
        #expect(throws: PatchError.self) { try parse("version: 1\ntempo: fast\n") }
        do {
            _ = try parse("version: 1\ntempo: 1000\n")
            Issue.record("a tempo of 1000 BPM was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.reason.contains("tempo 1000 is outside 20…400"))
        }
    }

    @Test func tempoAndRuntimeParameterValuesRoundTripThroughTheStateFile() throws {
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        var graph = try GraphFixtures.chain()
        graph.setParameter("semitones", of: "up", to: -7)
        #expect(graph.node("up")?.parameters["semitones"] == -7)
        try store.save(HubState(graph: graph, tempo: 87))
        let restored = try #require(try store.load())
        #expect(restored.tempo == 87)
        #expect(restored.graph.node("up")?.parameters["semitones"] == -7)
    }

    @Test func settingAParameterOfAnUnknownNodeChangesNothing() throws {
        let graph = try GraphFixtures.chain()
        var edited = graph
        edited.setParameter("semitones", of: "nobody", to: 3)
        #expect(edited == graph)
    }

    @Test func aStateFileWithoutTempoRestoresTheDefault() throws {
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(HubState(graph: try GraphFixtures.chain(), tempo: 140))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        let withoutTempo = text.replacingOccurrences(of: #",\s*"tempo" : 140"#, with: "", options: .regularExpression)
        #expect(withoutTempo != text)
        try withoutTempo.write(toFile: store.path, atomically: true, encoding: .utf8)
        #expect(try store.load()?.tempo == 120)
    }
}
