import MIDICore
import Testing
@testable import Hub

/// MIDI learn on its own: what a user's moves teach it.
@Suite struct MappingLearnerTests {
    static let target = MappingTarget(node: "synth", parameter: "brightness", low: -48, high: 48)

    /// Feeds `messages` 10 ms apart from a port feeding `sources`, then asks once the window has passed.
    static func learn(_ messages: [MIDIMessage], sources: [NodeID] = ["keys"]) -> MappingLearner.Outcome? {
        var learner = MappingLearner(target: target, deadline: 30)
        for (index, message) in messages.enumerated() {
            let taken = learner.observe(message, sources: sources, time: HostTime(seconds: Double(index) * 0.01))
            #expect(taken)
        }
        return learner.outcome(at: 1)
    }

    static func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> MIDIMessage {
        .controlChange(channel: channel, controller: controller, value: value)
    }

    static func learned(_ source: ControlSource, _ mode: ControlMode = .absolute, channel: UInt8 = 0,
                        from: NodeID? = "keys") -> MappingLearner.Outcome {
        .learned(Mapping(from: from, channel: channel, source: source, mode: mode, targets: [target]))
    }

    @Test func aKnobIsAPlainController() {
        #expect(Self.learn([Self.cc(74, 60, channel: 2), Self.cc(74, 61, channel: 2), Self.cc(74, 63, channel: 2)])
            == Self.learned(.controller(74), channel: 2))
    }

    @Test func anMSBAndItsLSBAreA14BitPair() {
        #expect(Self.learn([Self.cc(16, 64), Self.cc(48, 3), Self.cc(16, 64), Self.cc(48, 9)]) == Self.learned(.controllerPair(16)))
    }

    @Test func aParameterNumberThenDataEntryIsAnNRPNOrAnRPN() {
        #expect(Self.learn([Self.cc(99, 7), Self.cc(98, 104), Self.cc(6, 64), Self.cc(38, 1)]) == Self.learned(.nrpn(1000, fine: true)))
        #expect(Self.learn([Self.cc(99, 0), Self.cc(98, 5), Self.cc(6, 64)]) == Self.learned(.nrpn(5, fine: false)))
        #expect(Self.learn([Self.cc(101, 0), Self.cc(100, 0), Self.cc(96, 0)]) == Self.learned(.rpn(0, fine: false)))
    }

    @Test(arguments: [([UInt8(1), 1, 2, 127, 127], RelativeEncoding.twosComplement),
                      ([65, 65, 66, 63, 63], .offset64),
                      ([1, 1, 66, 66], .signMagnitude)])
    func repeatedSmallStepsAreARelativeEncoder(values: [UInt8], encoding: RelativeEncoding) {
        #expect(Self.learn(values.map { Self.cc(20, $0) }) == Self.learned(.controller(20), .relative(encoding)))
    }

    @Test func aKnobTurnedUpFromNearZeroIsNotAnEncoder() {
        #expect(Self.learn([1, 2, 3, 4, 5].map { Self.cc(20, $0) }) == Self.learned(.controller(20)))
    }

    @Test func aPadIsAMomentaryNoteAtOnceAndAReleaseFromBeforeTeachesNothing() {
        var learner = MappingLearner(target: Self.target, deadline: 30)
        let release = learner.observe(.noteOff(channel: 9, note: 40, velocity: 0), sources: [], time: 0)
        let before = learner.outcome(at: 0)
        let press = learner.observe(.noteOn(channel: 9, note: 36, velocity: 90), sources: ["pads", "keys"], time: 0.1)
        let after = learner.outcome(at: 0.1)
        #expect(release && press && before == nil)
        #expect(after == Self.learned(.note(36), .button(.momentary), channel: 9, from: nil))
    }

    @Test func wheelsAndPressureAreLearnedToo() {
        #expect(Self.learn([.pitchBend(channel: 1, value: 9000), .pitchBend(channel: 1, value: 9100)])
            == Self.learned(.pitchBend, channel: 1))
        #expect(Self.learn([.channelPressure(channel: 0, pressure: 30)]) == Self.learned(.channelPressure))
    }

    @Test func nothingMovedTimesOutAndSystemMessagesAreNotTaken() {
        var learner = MappingLearner(target: Self.target, deadline: 5)
        let clock = learner.observe(.clock, sources: [], time: 1)
        let early = learner.outcome(at: 4.9), late = learner.outcome(at: 5)
        #expect(!clock && early == nil)
        #expect(late == .timedOut)
    }
}
