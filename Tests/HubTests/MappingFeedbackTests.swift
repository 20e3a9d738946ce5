import MIDICore
import Testing
@testable import Hub

/// Feedback: what a controller is sent to show a value, and when.
@Suite struct MappingFeedbackTests {
    static let level = MappingTarget(node: "synth", parameter: "master gain", low: -60, high: 12)

    static func mapping(_ source: ControlSource, channel: UInt8? = 0) -> Mapping {
        Mapping(from: "knobs", channel: channel, source: source, feedback: true, targets: [level])
    }

    @Test func eachControlShowsTheValueInItsOwnForm() {
        // -24 dB is half-way over -60…12.
        #expect(Self.mapping(.controller(7)).feedback(showing: -24) == [.controlChange(channel: 0, controller: 7, value: 64)])
        #expect(Self.mapping(.controllerPair(7), channel: 2).feedback(showing: 12)
            == [.controlChange(channel: 2, controller: 7, value: 127), .controlChange(channel: 2, controller: 39, value: 127)])
        #expect(Self.mapping(.nrpn(1000, fine: true)).feedback(showing: -60)
            == [99, 98, 6, 38].map { MIDIMessage.controlChange(channel: 0, controller: $0, value: [99: 7, 98: 104][$0] ?? 0) })
        #expect(Self.mapping(.rpn(0, fine: false)).feedback(showing: 12).map(\.bytes) == [[0xB0, 101, 0], [0xB0, 100, 0], [0xB0, 6, 127]])
        #expect(Self.mapping(.note(36), channel: 9).feedback(showing: 12) == [.noteOn(channel: 9, note: 36, velocity: 127)])
        #expect(Self.mapping(.note(36), channel: 9).feedback(showing: -60) == [.noteOff(channel: 9, note: 36, velocity: 0)])
        #expect(Self.mapping(.pitchBend, channel: nil).feedback(showing: 12) == [.pitchBend(channel: 0, value: 16383)])
        #expect(!Self.mapping(.programChange).canShowValues)
    }

    @Test func aValueChangedElsewhereIsShownButAControlsOwnMoveIsNotEchoed() {
        var engine = MappedValues([Self.mapping(.controller(7)), Mapping(source: .controller(8), targets: [Self.level])], start: -60)
        #expect(!engine.hasFeedbackDue)
        var changes: [MappingEngine.Change] = []
        _ = engine.handle(.controlChange(channel: 0, controller: 7, value: 100), device: 1, sources: ["knobs"], time: 0, into: &changes)
        #expect(!engine.hasFeedbackDue)  // its own move
        _ = engine.handle(.controlChange(channel: 0, controller: 8, value: 127), device: 2, sources: [], time: 0, into: &changes)
        #expect(engine.takeFeedback(at: 1).map(\.messages) == [[.controlChange(channel: 0, controller: 7, value: 127)]])
        #expect(!engine.hasFeedbackDue)
        engine.valueChanged(node: "synth", parameter: "master gain", to: -24)
        #expect(engine.takeFeedback(at: 2).map(\.messages) == [[.controlChange(channel: 0, controller: 7, value: 64)]])
    }

    @Test func theControllersEchoOfWhatItWasShownIsNotAMove() {
        var engine = MappedValues([Self.mapping(.controller(7))], start: -24)
        engine.showValues()
        _ = engine.takeFeedback(at: 10)
        var changes: [MappingEngine.Change] = []
        _ = engine.handle(.controlChange(channel: 0, controller: 7, value: 64), device: 1, sources: ["knobs"], time: 10.1, into: &changes)
        #expect(changes.isEmpty)
        _ = engine.handle(.controlChange(channel: 0, controller: 7, value: 64), device: 1, sources: ["knobs"], time: 10.6, into: &changes)
        #expect(changes.count == 1)  // after the echo window, a move like any other
    }

    @Test func aReturningControllerIsShownItsSourcesValuesOnly() {
        var engine = MappedValues([Self.mapping(.controller(7)),
                                    Mapping(from: "pads", source: .note(36), feedback: true, targets: [Self.level])])
        engine.showValues(from: ["pads"])
        #expect(engine.takeFeedback(at: 0).map(\.mapping.from) == ["pads"])
    }
}

extension MappingFeedbackTests {
    @Test func anEncodersRingAndAToggledLightFollowTheirOwnMoves() {
        var engine = MappedValues([
            Mapping(from: "knobs", source: .controller(16), mode: .relative(.signMagnitude), feedback: true, targets: [Self.level]),
            Mapping(from: "knobs", channel: 0, source: .note(16), mode: .button(.toggle), feedback: true,
                    targets: [MappingTarget(node: "synth", parameter: "vibrato", low: 0, high: 100)]),
        ], start: 0)
        var changes: [MappingEngine.Change] = []
        _ = engine.handle(.controlChange(channel: 0, controller: 16, value: 64 + 8), device: 1, sources: ["knobs"], time: 0, into: &changes)
        _ = engine.handle(.noteOn(channel: 0, note: 16, velocity: 127), device: 1, sources: ["knobs"], time: 0, into: &changes)
        // 72 (sign-magnitude) is 8 ticks down: from 0 dB (60/72 of the travel) to 0.771 of it, 98 of 127 on
        // the ring; the toggle is on.
        #expect(engine.takeFeedback(at: 0).map(\.messages)
            == [[.controlChange(channel: 0, controller: 16, value: 98)], [.noteOn(channel: 0, note: 16, velocity: 127)]])
    }
}
