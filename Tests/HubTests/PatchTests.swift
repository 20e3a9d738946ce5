import Foundation
import Testing
@testable import Hub

@Suite struct PatchTests {
    let registry = GraphFixtures.registry

    func parse(_ yaml: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: yaml, file: "test.yaml", registry: registry)
    }

    func error(_ yaml: String) -> PatchError? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error
        }
    }

    // The example patches in patches/ load with the daemon's real node registry in
    // Tests/DaemonTests/DocumentationExampleTests.swift (patchFormatExamplePatchesLoad).

    @Test func splitPatchBuildsZonesAndChannelRoutes() throws {
        let patch = try parse("""
            nodes:
              keys: { source: hardware:* }
              split:
                processor: zones
                zones:
                  - { low: C-1, high: B3, channel: 1, transpose: 12 }
                  - { low: 60, high: G9, channel: 2 }
              bass: { instrument: midihub synth, parameters: { cutoff: 400 } }
            routes:
              - keys -> split
              - { from: split, to: bass, channels: [1] }
            rules:
              - disallow app:* -> "midihub:in"
            """)
        #expect(patch.graph.node("split")?.body == .processor(.keyZones([KeyZone(low: 0, high: 59, channel: 1, transpose: 12),
                                                                          KeyZone(low: 60, high: 127, channel: 2)])))
        #expect(patch.graph.node("bass")?.parameters == ["cutoff": 400])
        #expect(patch.graph.routes == [Route("keys", "split"), Route("split", "bass", channels: [1])])
        #expect(patch.rules == [ConnectionRule(.disallow, from: PortSelector(portClass: .app),
                                               to: PortSelector(client: NamePattern(glob: "midihub"), port: NamePattern(glob: "in")))])
    }

    @Test func yamlSyntaxErrorsCarryPosition() {
        let problem = error("nodes:\n  keys: [unclosed\n")
        #expect(problem?.file == "test.yaml")
        #expect(problem?.line == 3)
        #expect(problem?.description.hasPrefix("test.yaml:3:") == true)
    }

    /// Found by FuzzPatch: the YAML reader's refusal came out at 1:1 on several lines.
    @Test func controlCharactersArePositionedOnOneLine() {
        let problem = error("nodes:\n  keys: { source: \"a\u{1}b\" }\n")
        #expect(problem?.description ==
            "test.yaml:2:21: YAML: control characters are not allowed (character U+0001) (fix: remove that character; a patch is UTF-8 text)")
    }

    /// Found by FuzzPatch: a quoted port name that YAML folds over a blank line kept its
    /// line break in the error.
    @Test func errorsQuotingMultiLineTextStayOneLine() {
        let problem = error("nodes:\n  fluid:\n    external: '\"FLUID\n\n  Synth'\n")
        #expect(problem?.reason.contains("\n") == true)
        #expect(problem?.description.contains("\n") == false)
        #expect(problem?.description.contains(#"FLUID\n"#) == true)
    }

    /// Found by FuzzPatch: `[[[[…` a few kilobytes deep overflowed the YAML parser's stack.
    /// Nesting is bounded before the parser runs; what real patches do stays far inside.
    @Test func nestingIsBoundedBeforeTheYAMLParserRuns() {
        let brackets = error("nodes: " + String(repeating: "[", count: 1001))
        #expect(brackets?.description.hasPrefix("test.yaml:1:1008: more than 1000 [ and { in one patch (fix: ") == true)
        let indented = error("a:\n" + String(repeating: " ", count: 257) + "b: 1\n")
        #expect(indented?.description.hasPrefix("test.yaml:2:257: a line indented more than 256 columns") == true)
        let dashes = error(String(repeating: "- ", count: 129) + "x\n")
        #expect(dashes?.line == 1 && dashes?.column == 257)
        let deepButFine = error("nodes: " + String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000))
        #expect(deepButFine?.reason.contains("[ and {") != true)
    }

    /// Found by FuzzPatch: a whole number too large for Int trapped instead of being out of range.
    @Test func hugeWholeNumbersAreOutOfRange() {
        let problem = error("nodes:\n  keys: { source: \"*\" }\n  up: { processor: transpose }\n"
            + "routes:\n  - { from: keys, to: up, channels: [1e300] }\n")
        #expect(problem?.line == 5)
        #expect(problem?.reason.contains("is outside") == true, "\(String(describing: problem))")
    }

    @Test func unknownNodeInRouteIsPositionedAtTheRoute() {
        let problem = error("""
            nodes:
              keys: { source: "*" }
            routes:
              - keys -> organ
            """)
        #expect(problem == PatchError(file: "test.yaml", line: 4, column: 5,
                                      reason: "route keys -> organ names an unknown node 'organ'",
                                      fix: "define 'organ' under nodes, or correct the name"))
    }

    @Test func kindMismatchAndUnknownTypes() {
        let effectAsInstrument = error("nodes:\n  x: { instrument: Reverb }\n")
        #expect(effectAsInstrument?.reason == "'Reverb' is an effect, not an instrument")
        #expect(effectAsInstrument?.fix == "write `effect: Reverb`")
        #expect(effectAsInstrument.map { ($0.line, $0.column) } ?? (0, 0) == (2, 20))
        let unknown = error("nodes:\n  x: { processor: transpoze }\n")
        #expect(unknown?.reason == "unknown processor 'transpoze'")
        let twoBodies = error("nodes:\n  x: { processor: transpose, output: default }\n")
        #expect(twoBodies?.reason.contains("exactly one of") == true)
    }

    @Test func anAudioInputIsDeclaredByItsCaptureDevice() throws {
        let patch = try parse("""
            nodes:
              guitar: { input: "plughw:CARD=USB", parameters: { gain: 6 } }
              drive: { effect: Reverb }
              out: { output: default }
            routes: [guitar -> drive, drive -> out]
            """)
        #expect(patch.graph.node("guitar") == GraphNode(id: "guitar", body: .input("plughw:CARD=USB"), parameters: ["gain": 6]))
        #expect(error("nodes:\n  g: { input: hw:1, parameters: { gain: 30 } }\n")?.reason == "parameter 'gain' = 30 is outside -60…24")
        let asGenerator = error("nodes:\n  g: { generator: audio input }\n")
        #expect(asGenerator?.reason == "an audio input is declared by its capture device")
        #expect(asGenerator?.fix == "write `input: hw:1,0` (`arecord -L` lists the devices)")
    }

    @Test func parameterNamesAndRangesAreChecked() {
        let unknown = error("nodes:\n  t: { processor: transpose, parameters: { semis: 3 } }\n")
        #expect(unknown?.reason == "node 't' has no parameter 'semis'")
        #expect(unknown?.fix == "use one of semitones")
        let outside = error("nodes:\n  t:\n    processor: transpose\n    parameters:\n      semitones: 99\n")
        #expect(outside?.reason == "parameter 'semitones' = 99 is outside -48…48")
        #expect(outside.map { ($0.line, $0.column) } ?? (0, 0) == (5, 18))
        #expect(error("nodes:\n  t: { processor: transpose, parameters: { semitones: lots } }\n")?.reason
            .hasPrefix("expected a number") == true)
    }

    @Test func ruleErrorsPointIntoTheRuleText() {
        let problem = error("rules:\n  - 'connect \"/(bad/:*\" -> x'\n")
        #expect(problem?.line == 2)
        #expect(problem?.column == 14)
        #expect(problem?.reason.contains("invalid regular expression") == true)
    }

    @Test func loopsAndUnknownKeysAreRefused() {
        let loop = error("""
            nodes:
              a: { processor: transpose }
              b: { processor: velocity }
            routes:
              - a -> b
              - b -> a
            """)
        #expect(loop?.reason == "routes form a loop a -> b -> a")
        #expect(loop?.line == 6)
        #expect(error("nodez: {}\n")?.reason == "unknown top-level key 'nodez'")
        #expect(error("version: 2\n")?.fix == "write `version: 1`")
        #expect(error("")?.reason == "the patch is empty")
    }

    @Test func emptyControlSurfaceSectionsAreNothing() throws {
        let patch = try parse("mappings: []\nwidgets: []\nnodes:\n  k: { source: '*' }\n")
        #expect(patch.graph.nodes.map(\.id) == ["k"])
        #expect(patch.mappings.isEmpty && patch.widgets.isEmpty)
    }

    @Test func aPatchHoldsAtMostMaxNodesNodes() throws {
        func nodes(_ count: Int) -> String {
            "nodes:\n" + (0..<count).map { "  n\($0):\n    source: '*'\n" }.joined()
        }
        #expect(try parse(nodes(HubGraph.maxNodes)).graph.nodes.count == HubGraph.maxNodes)
        #expect(throws: PatchError(file: "test.yaml", line: 2, column: 3, reason: "4097 nodes; a hub holds at most 4096",
                                   fix: "split the setup over several patches, or remove nodes")) {
            try parse(nodes(HubGraph.maxNodes + 1))
        }
        let full = try parse(nodes(HubGraph.maxNodes)).graph
        #expect(throws: GraphError.tooManyNodes(HubGraph.maxNodes + 1)) {
            try full.adding(GraphNode(id: "one-more", body: full.nodes[0].body))
        }
    }

    @Test func aProblemWithTheWholeFileNamesTheFileWithoutALine() throws {
        do {
            _ = try Patch.load(contentsOf: "/nonexistent/p.yaml", registry: registry)
            Issue.record("a missing patch loaded")
        } catch {
            #expect(error.description == "no file '/nonexistent/p.yaml' (fix: check the path)")
        }
        let binary = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-\(UUID().uuidString).yaml").path
        defer { try? FileManager.default.removeItem(atPath: binary) }
        #expect(FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x00])))
        do {
            _ = try Patch.load(contentsOf: binary, registry: registry)
            Issue.record("bytes that are not UTF-8 loaded as a patch")
        } catch {
            #expect(error.description == "'\(binary)' is not UTF-8 text, not a patch (fix: give a YAML patch saved as UTF-8)")
        }
    }

    @Test func noteNames() {
        #expect(NoteName.number("C4") == 60)
        #expect(NoteName.number("C-1") == 0)
        #expect(NoteName.number("G9") == 127)
        #expect(NoteName.number("F#3") == 54)
        #expect(NoteName.number("Bb-1") == 10)
        #expect(NoteName.number("H2") == nil)
        #expect(NoteName.number("G#9") == nil)
        // Found by FuzzPatch: an octave this long overflowed the arithmetic and trapped.
        #expect(NoteName.number("B000000000000000009123563345811836470") == nil)
        #expect(NoteName.number("C10") == nil && NoteName.number("C-2") == nil)
    }
}

extension PatchTests {
    @Test func anExternalNodeFollowsTheClockWithItsOffsetAndKeepsItInTheState() throws {
        let patch = try parse("""
            nodes:
              song: { source: "midihub:sequence" }
              drums: { external: "TR-8", clock: true, clock offset: -4.5 }
              fluid: { external: "FLUID" }
            routes:
              - song -> drums
              - song -> fluid
            """)
        guard case .external(let drums)? = patch.graph.node("drums")?.body,
              case .external(let fluid)? = patch.graph.node("fluid")?.body else {
            Issue.record("no external nodes")
            return
        }
        #expect(drums.clock == .send && drums.clockOffset == -4.5)
        #expect(fluid.clock == nil && fluid.clockOffset == 0)
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(HubState(graph: patch.graph, rules: []))
        #expect(try store.load()?.graph == patch.graph)
        let problem = error("nodes:\n  drums: { external: TR-8, clock offset: 250 }\n")
        #expect(problem?.description.hasPrefix("test.yaml:2:42: clock offset 250 ms is outside -100…100") == true, "\(String(describing: problem))")
    }

    @Test func theTransportFollowsOneExternalNodesClockKeptInTheState() throws {
        let patch = try parse("""
            nodes:
              master: { external: "midish", clock: follow }
              drums: { external: "TR-8", clock: send }
              fluid: { external: "FLUID", clock: false }
            """)
        #expect(patch.graph.nodes.map(\.leadsClock) == [true, false, false])
        guard case .external(let drums)? = patch.graph.node("drums")?.body,
              case .external(let fluid)? = patch.graph.node("fluid")?.body else {
            Issue.record("no external nodes")
            return
        }
        #expect(drums.clock == .send && fluid.clock == nil)
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(HubState(graph: patch.graph, rules: []))
        #expect(try store.load()?.graph == patch.graph)
        let two = error("nodes:\n  a: { external: x, clock: follow }\n  b: { external: y, clock: follow }\n")
        #expect(two?.description.hasPrefix("test.yaml:3:3: nodes 'a' and 'b' both have `clock: follow`") == true, "\(String(describing: two))")
        let unknown = error("nodes:\n  a: { external: x, clock: lead }\n")
        #expect(unknown?.description.hasPrefix("test.yaml:2:28: clock 'lead' is neither send nor follow") == true, "\(String(describing: unknown))")
    }
}

extension PatchTests {
    @Test func aPlayTriggerNamesASequenceBesideThePatch() throws {
        let folder = temporaryDirectory()
        FileManager.default.createFile(atPath: folder + "/intro.mid", contents: Data([0x4D]))
        let yaml = "triggers:\n  intro: { play: intro.mid }\n"
        let patch = try Patch.parse(yaml: yaml, file: folder + "/song.yaml", registry: registry)
        #expect(patch.triggers == [Trigger(name: "intro", action: .play(path: folder + "/intro.mid"))])
        do {
            _ = try Patch.parse(yaml: "triggers:\n  intro: { play: gone.mid }\n", file: folder + "/song.yaml", registry: registry)
            Issue.record("a missing sequence was accepted")
        } catch {
            #expect(error.description.hasPrefix("\(folder)/song.yaml:2:18: trigger 'intro': no sequence file \(folder)/gone.mid"), "\(error)")
        }
    }
}

extension PatchTests {
    @Test func aBypassTriggerNamesAnEffectOfThePatch() throws {
        let nodes = "nodes:\n  keys: { source: \"*\" }\n  piano: { instrument: midihub synth }\n  hall: { effect: reverb, parameters: { bypass: 1 } }\n"
        let patch = try parse(nodes + "triggers:\n  dry: { bypass: hall }\n")
        #expect(patch.triggers == [Trigger(name: "dry", action: .bypass(node: "hall"))])
        #expect(patch.graph.node("hall")?.isBypassed == true, "`bypass` is a parameter of every effect")
        let instrument = error(nodes + "triggers:\n  dry: { bypass: piano }\n")
        #expect(instrument?.description == "test.yaml:6:18: trigger 'dry': 'piano' (instrument) is not an effect (fix: bypass one of hall)",
                "\(String(describing: instrument))")
        let unknown = error(nodes + "triggers:\n  dry: { bypass: room }\n")
        #expect(unknown?.description == "test.yaml:6:18: trigger 'dry': no node 'room' (fix: bypass one of hall)", "\(String(describing: unknown))")
    }
}

extension PatchTests {
    @Test func aSceneCanLoadAPatchBesideThisOne() throws {
        let folder = temporaryDirectory()
        FileManager.default.createFile(atPath: folder + "/bridge.yaml", contents: Data("version: 1\n".utf8))
        let yaml = "scenes:\n  bridge: { program: 1, patch: bridge.yaml }\n"
        let patch = try Patch.parse(yaml: yaml, file: folder + "/verse.yaml", registry: registry)
        #expect(patch.scenes == [Scene(name: "bridge", program: 1, values: [], patch: folder + "/bridge.yaml")])
        func error(_ yaml: String) -> String {
            do {
                _ = try Patch.parse(yaml: yaml, file: folder + "/verse.yaml", registry: registry)
                return "accepted"
            } catch {
                return error.description
            }
        }
        #expect(error("scenes:\n  bridge: { patch: gone.yaml }\n")
                .hasPrefix("\(folder)/verse.yaml:2:20: scene 'bridge': no patch file \(folder)/gone.yaml (fix: give a .yaml patch"))
        let both = "nodes:\n  up: { processor: transpose }\nscenes:\n  bridge: { patch: bridge.yaml, set: { up.semitones: 2 } }\n"
        #expect(error(both).hasPrefix("\(folder)/verse.yaml:4:20: scene 'bridge' both loads a patch and sets values"), "\(error(both))")
    }
}

extension PatchTests {
    @Test func transportFollowAndLeadAreReadAndKeptInTheStateAndOtherWordsAreRefused() throws {
        let patch = try parse("transport: follow\nnodes:\n  out: { output: default }\n")
        #expect(patch.jackTransport == .follow)
        #expect(try parse("nodes:\n  out: { output: default }\n").jackTransport == nil)
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(HubState(graph: patch.graph, jackTransport: patch.jackTransport))
        #expect(try store.load()?.jackTransport == .follow)
        #expect(try parse("transport: lead\n").jackTransport == .lead)
        let master = error("transport: master\n")
        #expect(master?.description == "test.yaml:1:12: transport 'master' is not a way to go with JACK's transport "
            + "(fix: write `transport: follow` (JACK's transport moves the hub's song) or `transport: lead` (the hub's moves "
            + "JACK's), or leave it out)", "\(String(describing: master))")
    }
}

extension PatchTests {
    /// An external instrument's `audio:` (docs/patch-format.md): its sound comes back into the
    /// graph, goes through effects to an output, takes an audio input's gain, and is kept.
    @Test func anExternalInstrumentsAudioComesBackIntoTheGraphAndIsKept() throws {
        let patch = try parse("""
            nodes:
              fluid: { external: '"FLUID Synth*"', audio: "jack:fluidsynth:*", parameters: { gain: -6 } }
              room: { effect: Reverb }
              out: { output: default }
            routes:
              - fluid -> room
              - room -> out
            """)
        guard case .external(let fluid)? = patch.graph.node("fluid")?.body else { Issue.record("no external node"); return }
        #expect(fluid.audio == "jack:fluidsynth:*" && fluid.playsIntoGraph)
        let routes = patch.graph.audioRoutes
        #expect(routes.nodes == ["fluid", "room"])
        #expect(routes.inputs["room"] == ["fluid"] && routes.toOutput == ["room"])
        #expect(patch.graph.node("fluid")?.parameters == ["gain": -6])
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(HubState(graph: patch.graph))
        #expect(try store.load()?.graph.node("fluid") == patch.graph.node("fluid"))
        // Without `audio:` the app's sound goes elsewhere: the graph renders nothing of it.
        #expect(try parse("nodes:\n  fluid: { external: '\"FLUID Synth*\"' }\n").graph.audioRoutes.nodes.isEmpty)
    }

    @Test func anExternalNodesAudioIsRefusedOnAProcessorABadJackSelectorAndNotJack() {
        #expect(error("nodes:\n  p: { external: midish, role: processor, audio: \"jack:x:*\" }\n")?.description
            == "test.yaml:2:50: `audio:` is an instrument's sound, and this node is a processor "
            + "(fix: drop `audio:`, or make it `role: instrument`)")
        #expect(error("nodes:\n  f: { external: fluid, audio: \"jack:/x(/\" }\n")?.description.contains("invalid regular expression") == true)
        #expect(error("nodes:\n  f: { external: fluid, audio: hw:1 }\n")?.description
            == "test.yaml:2:32: `audio:` names JACK audio ports, and 'hw:1' is not one "
            + "(fix: write e.g. `audio: \"jack:fluidsynth:*\"`; a sound card's input is an `input:` node)")
    }
}
