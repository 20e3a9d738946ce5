import Foundation
import Testing
@testable import Hub

/// `mappings:` in patches: what they read into, and the errors that point at the mistake.
@Suite struct MappingPatchTests {
    static let head = """
        nodes:
          keys: { source: hardware:* }
          piano: { instrument: midihub synth }
          up: { processor: transpose }
        mappings:

        """

    func parse(_ mappings: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: Self.head + mappings, file: "m.yaml", registry: GraphFixtures.registry)
    }

    func error(_ mappings: String) -> PatchError? {
        do {
            _ = try parse(mappings)
            return nil
        } catch {
            return error
        }
    }

    @Test func mappingsReadWithTheirSourcesModesAndTargets() throws {
        let patch = try parse("""
              - { control: cc 74, from: keys, channel: 2, to: piano.cutoff, range: [200, 8000], curve: exponential, pickup: pickup }
              - { control: cc 20, mode: relative, encoding: offset-64, step: 0.01, acceleration: 2, to: up.semitones }
              - { control: cc14 16, to: [piano.cutoff, { node: up, parameter: semitones, range: [0, 12], steps: 13 }] }
              - { control: nrpn 1000, bits: 7, to: transport.tempo, pass: true }
              - { control: note C1, mode: toggle, to: piano.cutoff, values: [100, 1000] }
              - { control: poly pressure F#2, to: piano.cutoff, invert: true }
              - { control: pitch bend, to: piano.cutoff }
            """)
        #expect(patch.mappings.count == 7)
        #expect(patch.mappings[0] == Mapping(from: "keys", channel: 1, source: .controller(74), pickup: .pickup,
                                             targets: [MappingTarget(node: "piano", parameter: "cutoff", low: 200, high: 8000,
                                                                     curve: .exponential)]))
        #expect(patch.mappings[1].mode == .relative(.offset64))
        #expect(patch.mappings[1].step == 0.01 && patch.mappings[1].acceleration == 2)
        #expect(patch.mappings[1].targets[0].low == -48 && patch.mappings[1].targets[0].high == 48)
        #expect(patch.mappings[2].targets == [MappingTarget(node: "piano", parameter: "cutoff", low: 20, high: 20000),
                                              MappingTarget(node: "up", parameter: "semitones", low: 0, high: 12, steps: 13)])
        #expect(patch.mappings[3].source == .nrpn(1000, fine: false) && patch.mappings[3].passes)
        #expect(patch.mappings[3].targets[0].node == "transport" && patch.mappings[3].targets[0].high == 400)
        #expect(patch.mappings[4].source == .note(24) && patch.mappings[4].mode == .button(.toggle))
        #expect(patch.mappings[4].targets[0].values == [100, 1000])
        #expect(patch.mappings[5].source == .polyPressure(42) && patch.mappings[5].targets[0].invert)
        #expect(patch.mappings[6].source == .pitchBend)
    }

    @Test func aNoteDefaultsToAMomentaryButton() throws {
        #expect(try parse("  - { control: note 36, to: piano.cutoff }").mappings[0].mode == .button(.momentary))
    }

    @Test(arguments: [
        ("  - { to: piano.cutoff }", 6, 5, "a mapping needs `control` and `to`"),
        ("  - { control: cc 128, to: piano.cutoff }", 6, 16, "control 'cc 128': 128 is outside 0…127"),
        ("  - { control: knob 3, to: piano.cutoff }", 6, 16, "unknown control 'knob 3'"),
        ("  - { control: cc, to: piano.cutoff }", 6, 16, "unknown control 'cc'"),  // found by FuzzPatch: it trapped
        ("  - { control: cc 1, to: organ.cutoff }", 6, 26, "target 'organ.cutoff' names no node of this patch"),
        ("  - { control: cc 1, to: piano.drive }", 6, 26, "node 'piano' has no parameter 'drive'"),
        ("  - { control: cc 1, to: keys.x }", 6, 26, "node 'keys' has no parameters a mapping can move"),
        ("  - { control: cc 1, to: piano.cutoff, range: [0, 100] }", 6, 48, "0 is outside 'cutoff' 20.0…20000.0"),
        ("  - { control: cc 1, from: piano, to: piano.cutoff }", 6, 28, "mapping from 'piano': no source node of that name"),
        ("  - { control: note 3, mode: relative, to: piano.cutoff }", 6, 30, "a relative encoder sends a 7-bit controller"),
        ("  - { control: pitch bend, mode: toggle, to: piano.cutoff }", 6, 34, "a toggle button reads a note or a controller"),
        ("  - { control: cc 1, encoding: offset-64, to: piano.cutoff }", 6, 32, "`encoding` belongs to relative encoders"),
        ("  - { control: cc 1, pickup: soft, to: piano.cutoff }", 6, 30, "unknown pickup mode 'soft'"),
        ("  - { control: cc 1, bits: 7, to: piano.cutoff }", 6, 28, "`bits` is 7 or 14, for an nrpn or rpn control"),
        ("  - { control: cc 1, to: piano.cutoff, colour: red }", 6, 40, "unknown key 'colour'"),
    ])
    func aBadMappingIsRefusedWhereItIsWrong(yaml: String, line: Int, column: Int, reason: String) {
        let found = error(yaml)
        #expect(found?.reason == reason)
        #expect(found.map { ($0.line, $0.column) } ?? (0, 0) == (line, column))
        #expect(found?.fix.isEmpty == false)
    }

    @Test func mappingsSurviveTheStateFile() throws {
        let patch = try parse("  - { control: cc14 3, channel: 16, mode: absolute, to: [piano.cutoff, transport.tempo] }")
        let state = HubState(graph: patch.graph, mappings: patch.mappings)
        #expect(try HubState(decoding: state.encoded(), path: "s.json") == state)
    }
}

extension MappingPatchTests {
    @Test func feedbackNeedsTheControllersSourceNodeAndAControlThatShowsValues() throws {
        #expect(try parse("  - { control: cc 7, from: keys, feedback: true, to: piano.cutoff }").mappings[0].feedback)
        #expect(error("  - { control: cc 7, feedback: true, to: piano.cutoff }")?.reason
            == "feedback needs `from`: the source node of the controller whose lights or faders show the value")
        #expect(error("  - { control: program change, from: keys, feedback: true, to: piano.cutoff }")?.reason
            == "a program change control cannot show a value")
    }
}

extension MappingPatchTests {
    @Test func scenesReadTheirProgramsAndValuesAndAMappingCanSwitchThem() throws {
        let patch = try Patch.parse(yaml: Self.head + """
              - { control: program change, channel: 16, to: scene.program }
            scenes:
              verse: { program: 0, set: { piano.cutoff: 400, up.semitones: -12, transport.tempo: 90 } }
              chorus: { set: { piano.cutoff: 8000 } }
            """, file: "s.yaml", registry: GraphFixtures.registry)
        #expect(patch.scenes == [
            Scene(name: "verse", program: 0, values: [SceneValue(node: "piano", parameter: "cutoff", value: 400),
                                                      SceneValue(node: "up", parameter: "semitones", value: -12),
                                                      SceneValue(node: "transport", parameter: "tempo", value: 90)]),
            Scene(name: "chorus", values: [SceneValue(node: "piano", parameter: "cutoff", value: 8000)]),
        ])
        #expect(patch.mappings[0].targets == [MappingTarget(node: "scene", parameter: "program", low: 0, high: 127)])
        let state = HubState(graph: patch.graph, mappings: patch.mappings, scenes: patch.scenes)
        #expect(try HubState(decoding: state.encoded(), path: "s.json") == state)
    }

    @Test(arguments: [
        ("a: { program: 1 }\n  b: { program: 1 }", 7, 17, "program 1 already selects scene 'a'"),
        ("a: { set: { piano.cutoff: 5 } }", 6, 29, "5 is outside 'cutoff' 20.0…20000.0"),
        ("a: { set: { organ.cutoff: 500 } }", 6, 15, "target 'organ.cutoff' names no node of this patch"),
        ("a: { colour: red }", 6, 8, "unknown key 'colour'"),
    ])
    func aBadSceneIsRefusedWhereItIsWrong(yaml: String, line: Int, column: Int, reason: String) {
        let text = Self.head.replacingOccurrences(of: "mappings:\n", with: "scenes:\n") + "  " + yaml + "\n"
        do {
            _ = try Patch.parse(yaml: text, file: "s.yaml", registry: GraphFixtures.registry)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.reason == reason)
            #expect((error.line, error.column) == (line, column), "\(error)")
        }
    }
}
