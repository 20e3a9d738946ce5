import Foundation
import Testing
@testable import Hub

/// Triggers in patches, and tap tempo.
@Suite struct TriggerTests {
    @Test func tapsGiveTheTempoOfTheirIntervalsAndAPauseStartsOver() {
        var taps = TapTempo()
        #expect(taps.tap(at: 10) == nil)
        #expect(taps.isPrimed(at: 11))
        #expect(taps.tap(at: 10.5) == 120)
        #expect(abs((taps.tap(at: 11.1) ?? 0) - 60 / 0.55) < 1e-9)  // the mean of 0.5 and 0.6
        #expect(!taps.isPrimed(at: 13.2))
        #expect(taps.tap(at: 13.2) == nil)  // after a pause: a first tap again
        #expect(taps.tap(at: 13.21) == 400)  // as fast as a double hit: the fastest tempo
    }

    static let patch = """
        nodes:
          keys: { source: hardware:* }
          piano: { instrument: midihub synth }
        scenes:
          soft: { set: { piano.cutoff: 400 } }
        triggers:
          soft pad: { scene: soft }
          drums off: { send: "B9 7B 00 B9 40 00", to: '"TR-8*:*"' }
        mappings:
          - { control: note 36, to: trigger.panic }
          - { control: cc 64, to: trigger.soft pad }

        """

    @Test func aPatchsTriggersSwitchScenesOrSendMIDIAndMappingsFireThem() throws {
        let patch = try Patch.parse(yaml: Self.patch, file: "t.yaml", registry: GraphFixtures.registry)
        #expect(patch.triggers == [Trigger(name: "soft pad", action: .scene("soft")),
                                   Trigger(name: "drums off", action: .send(port: #""TR-8*:*""#, bytes: [0xB9, 0x7B, 0, 0xB9, 0x40, 0]))])
        #expect(patch.mappings.map { $0.targets[0].node + "." + $0.targets[0].parameter } == ["trigger.panic", "trigger.soft pad"])
        let state = HubState(graph: patch.graph, scenes: patch.scenes, triggers: patch.triggers)
        #expect(try HubState(decoding: state.encoded(), path: "s.json") == state)
    }

    @Test(arguments: [
        ("  panic: { scene: soft }", "trigger 'panic' is defined twice or is one of the hub's own"),
        ("  x: { scene: loud }", "trigger 'x': no scene 'loud'"),
        ("  x: { send: \"B9 7B\", to: '*' }", "'B9 7B' is not whole MIDI messages"),
        ("  x: { send: \"B9 7G 00\", to: '*' }", "'7G' is not a byte in hex"),
        ("  x: { }", "trigger 'x' does nothing"),
        ("  x: { send: \"B9 7B 00\", to: '\"TR-8' }", "trigger 'x': malformed quoted name \"TR-8"),
    ])
    func aBadTriggerIsRefused(yaml: String, reason: String) {
        let text = Self.patch.replacingOccurrences(of: "  soft pad: { scene: soft }\n", with: yaml + "\n")
            .replacingOccurrences(of: "  - { control: cc 64, to: trigger.soft pad }\n", with: "")
        do {
            _ = try Patch.parse(yaml: text, file: "t.yaml", registry: GraphFixtures.registry)
            Issue.record("accepted: \(yaml)")
        } catch {
            #expect(error.reason == reason)
        }
    }

    @Test func aTriggerFiresOnPressesSoItsMappingTakesNoButtonMode() {
        let text = Self.patch.replacingOccurrences(of: "{ control: note 36, to: trigger.panic }",
                                                   with: "{ control: note 36, mode: toggle, to: trigger.panic }")
        #expect(throws: PatchError.self) { try Patch.parse(yaml: text, file: "t.yaml", registry: GraphFixtures.registry) }
    }
}

/// Widgets in patches.
@Suite struct WidgetPatchTests {
    static let head = TriggerTests.patch.replacingOccurrences(of: "mappings:\n", with: "widgets:\n")
        .replacingOccurrences(of: "  - { control: note 36, to: trigger.panic }\n  - { control: cc 64, to: trigger.soft pad }\n", with: "")

    static func parse(_ widgets: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: head + widgets + "\n", file: "w.yaml", registry: GraphFixtures.registry)
    }

    @Test func widgetsNameWhatTheyShow() throws {
        let patch = try Self.parse("""
              - { slider: piano.cutoff, title: Filter }
              - { button: trigger.soft pad }
              - { label: transport.tempo }
              - { selector: scene }
            """)
        #expect(patch.widgets == [Widget(kind: .slider, title: "Filter", node: "piano", parameter: "cutoff"),
                                  Widget(kind: .button, title: "soft pad", node: "trigger", parameter: "soft pad"),
                                  Widget(kind: .label, title: "tempo", node: "transport", parameter: "tempo"),
                                  Widget(kind: .selector, title: "scene", node: "scene", parameter: "")])
        let state = HubState(graph: patch.graph, scenes: patch.scenes, widgets: patch.widgets)
        #expect(try HubState(decoding: state.encoded(), path: "s.json") == state)
    }

    @Test func metersAndLabelsShowOutputs() throws {
        let patch = try Self.parse("  - { meter: piano.active voices }\n  - { label: piano.active voices }\n  - { label: piano.cutoff }")
        #expect(patch.widgets.map(\.showsOutput) == [true, true, false])
    }

    @Test(arguments: [
        ("  - { meter: piano.cutoff }", "a meter shows a node's output"),
        ("  - { slider: trigger.panic }", "a slider shows a parameter, not a trigger"),
        ("  - { button: piano.cutoff }", "a button fires a trigger"),
        ("  - { selector: piano }", "a selector picks a scene"),
        ("  - { slider: piano.cutoff, knob: piano.cutoff }", "a widget names one kind and what it shows"),
        ("  - { knob: piano.drive }", "node 'piano' has no parameter 'drive'"),
    ])
    func aBadWidgetIsRefused(yaml: String, reason: String) {
        #expect(throws: PatchError.self) { try Self.parse(yaml) }
        do { _ = try Self.parse(yaml) } catch { #expect(error.reason == reason) }
    }
}

/// Pad matrices in patches.
@Suite struct PadMatrixTests {
    @Test func padsBecomeOneMappingPerPadRowByRow() throws {
        let text = TriggerTests.patch.replacingOccurrences(of: "mappings:\n", with: "pads:\n")
            .replacingOccurrences(of: "  - { control: note 36, to: trigger.panic }\n  - { control: cc 64, to: trigger.soft pad }\n", with:
                "  { from: keys, channel: 10, first note: C1, columns: 4, feedback: true, triggers: [[panic, ~, soft pad], [tap tempo]] }\n")
        let patch = try Patch.parse(yaml: text, file: "p.yaml", registry: GraphFixtures.registry)
        #expect(patch.mappings.map(\.source) == [.note(24), .note(26), .note(28)])
        #expect(patch.mappings.map { $0.targets[0].parameter } == ["panic", "soft pad", "tap tempo"])
        #expect(patch.mappings.allSatisfy { $0.feedback && $0.from == "keys" && $0.channel == 9 && $0.mode == .button(.momentary) })
    }

    @Test func aPadNamingNoTriggerIsRefused() {
        let text = TriggerTests.patch.replacingOccurrences(of: "mappings:\n", with: "pads:\n")
            .replacingOccurrences(of: "  - { control: note 36, to: trigger.panic }\n  - { control: cc 64, to: trigger.soft pad }\n", with:
                "  { first note: 36, triggers: [[panic, loud]] }\n")
        do {
            _ = try Patch.parse(yaml: text, file: "p.yaml", registry: GraphFixtures.registry)
            Issue.record("accepted")
        } catch {
            #expect(error.reason == "no trigger 'loud'")
        }
    }
}
