import MIDICore
import RenderCore
import HubTestSupport
import Testing
import Hub

/// The owner's apply step for graph changes the control side worked out against a snapshot
/// (`PreparedGraphChange`): applied as prepared while the graph is the one it was made from,
/// worked out again (rebased) or refused when the owner moved past it — never applied stale.
@Suite struct PreparedGraphChangeTests {
    static let fifth = GraphNode(id: "fifth", body: .processor(.transpose), parameters: ["semitones": 7])

    /// `edit` worked out against the core's graph as it is now.
    static func prepare(_ edit: GraphEdit, in core: HubCore) throws -> PreparedGraphChange {
        try PreparedGraphChange(try edit.change(of: core.snapshot.graph), against: core.snapshot.graphRevision)
    }

    /// Installing `patch` worked out against the core's graph as it is now.
    static func prepare(_ patch: Patch, in core: HubCore) throws -> PreparedGraphChange {
        try PreparedGraphChange(GraphChange(from: core.snapshot.graph, to: patch.graph), against: core.snapshot.graphRevision)
    }

    @Test func anEditPreparedAgainstTheCurrentGraphIsAppliedAsPrepared() throws {
        var core = try HubCoreTests.core()
        try HubCoreTests.listKeyboard(in: &core)
        let edit = GraphEdit.add(Self.fifth)
        let prepared = try Self.prepare(edit, in: core)
        var sink = RecordingSink()
        let effects = try core.handle(.editGraph(edit, at: 1, prepared: prepared), into: &sink)

        #expect(effects.first == .installProgram(prepared.change.new, stopped: [], routes: prepared.audioRoutes))
        #expect(core.snapshot.graph == prepared.change.new)
        #expect(core.snapshot.graphRevision == prepared.revision + 1)
        #expect(core.snapshot.processorParameters("fifth")?.infos.map(\.name) == ["semitones"])
        // The routes it compiled carry MIDI: keys → up (+12) → piano as before.
        let played = try HubCoreTests.play(.noteOn(channel: 0, note: 60, velocity: 90), at: 2, in: &core)
        #expect(played.messages(at: "piano") == [.noteOn(channel: 0, note: 72, velocity: 90)])
    }

    @Test func anEditPreparedAgainstAGraphTheOwnerMovedPastIsWorkedOutAgain() throws {
        var core = try HubCoreTests.core()
        let edit = GraphEdit.add(Self.fifth)
        let stale = try Self.prepare(edit, in: core)
        var sink = RecordingSink()
        _ = try core.handle(.editGraph(.remove("verb"), at: 1), into: &sink)  // another request came first

        let effects = try core.handle(.editGraph(edit, at: 2, prepared: stale), into: &sink)
        #expect(effects.first == .installProgram(core.snapshot.graph, stopped: [], routes: nil))
        #expect(core.snapshot.graph.node("verb") == nil, "the other request's change stays")
        #expect(core.snapshot.graph.node("fifth") == Self.fifth)
        #expect(core.snapshot.graph != stale.change.new)
    }

    @Test func anEditThatNoLongerFitsIsRefusedAndChangesNothing() throws {
        var core = try HubCoreTests.core()
        let edit = GraphEdit.replace("verb", with: GraphFixtures.verb.body, parameters: ["mix": 0.3])
        let stale = try Self.prepare(edit, in: core)
        var sink = RecordingSink()
        _ = try core.handle(.editGraph(.remove("verb"), at: 1), into: &sink)
        let before = core.snapshot.state

        #expect(throws: HubRefusal.self) { try core.handle(.editGraph(edit, at: 2, prepared: stale), into: &sink) }
        #expect(core.snapshot.state == before)
    }

    @Test func aPatchPreparedAgainstTheCurrentGraphIsInstalledAsPrepared() throws {
        var core = try HubCoreTests.core()
        let patch = Patch(graph: try HubCoreTests.withoutPiano(), tempo: 100)
        let prepared = try Self.prepare(patch, in: core)
        var sink = RecordingSink()
        let effects = try core.handle(.install(patch, at: 1, prepared: prepared), into: &sink)
        #expect(effects.first == .installProgram(patch.graph, stopped: [GraphFixtures.piano], routes: prepared.audioRoutes))
        #expect(core.snapshot.graph == patch.graph)
    }

    @Test func aPatchPreparedAgainstAnOlderGraphIsWorkedOutAgain() throws {
        var core = try HubCoreTests.core()
        let patch = Patch(graph: try HubCoreTests.withoutPiano(), tempo: 100)
        let stale = try Self.prepare(patch, in: core)
        var sink = RecordingSink()
        _ = try core.handle(.editGraph(.add(Self.fifth), at: 1), into: &sink)

        let effects = try core.handle(.install(patch, at: 2, prepared: stale), into: &sink)
        #expect(effects.first == .installProgram(patch.graph, stopped: [GraphFixtures.piano, Self.fifth], routes: nil))
        #expect(core.snapshot.graph == patch.graph, "the patch's graph, without the node added meanwhile")
    }
}
