import MIDICore
import Testing
@testable import Hub

/// The mapping engine on its own: messages in, parameter values out.
@Suite struct MappingEngineTests {
    static let cutoff = MappingTarget(node: "synth", parameter: "cutoff", low: 0, high: 100)

    /// Feeds `messages` (all at time `time`, from port 1, feeding source node `keys`) and
    /// returns the values set, in order.
    static func values(_ engine: inout MappedValues, _ messages: [MIDIMessage], time: Double = 0,
                       sources: [NodeID] = ["keys"]) -> [Float] {
        var changes: [MappingEngine.Change] = []
        for message in messages { _ = engine.handle(message, device: 1, sources: sources, time: HostTime(seconds: time), into: &changes) }
        return changes.map(\.value)
    }

    static func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> MIDIMessage {
        .controlChange(channel: channel, controller: controller, value: value)
    }

    @Test func aControllerSpansTheRangeEndToEnd() {
        var engine = MappedValues([Mapping(source: .controller(74), targets: [Self.cutoff])])
        #expect(Self.values(&engine, [Self.cc(74, 0), Self.cc(74, 127), Self.cc(73, 5)]) == [0, 100])
    }

    @Test func aFourteenBitPairReachesBothEndsAndEveryStep() {
        var engine = MappedValues([Mapping(source: .controllerPair(16),
                                            targets: [MappingTarget(node: "n", parameter: "p", low: 0, high: 16383)])])
        #expect(Self.values(&engine, [Self.cc(16, 0), Self.cc(48, 0)]) == [0, 0])
        #expect(Self.values(&engine, [Self.cc(16, 127), Self.cc(48, 127)]) == [16256, 16383])
        #expect(Self.values(&engine, [Self.cc(16, 64), Self.cc(48, 1)]) == [8192, 8193])
    }

    @Test func nrpnDataEntryAndIncrementsMoveTheSelectedParameterOnly() {
        var engine = MappedValues([Mapping(source: .nrpn(1000, fine: true),
                                            targets: [MappingTarget(node: "n", parameter: "p", low: 0, high: 16383)])])
        // 1000 = MSB 7, LSB 104.
        let select = [Self.cc(99, 7), Self.cc(98, 104)]
        #expect(Self.values(&engine, select + [Self.cc(6, 127), Self.cc(38, 127), Self.cc(96, 0), Self.cc(97, 0)])
            == [16256, 16383, 16383, 16382])
        // Another NRPN and the RPN null reset select nothing this mapping hears.
        #expect(Self.values(&engine, [Self.cc(99, 7), Self.cc(98, 105), Self.cc(6, 3)]).isEmpty)
        #expect(Self.values(&engine, select + [Self.cc(101, 127), Self.cc(100, 127), Self.cc(6, 3)]).isEmpty)
    }

    @Test func aSevenBitNRPNTakesTheDataEntryMSBAsItsValue() {
        var engine = MappedValues([Mapping(source: .nrpn(5, fine: false), targets: [Self.cutoff])])
        #expect(Self.values(&engine, [Self.cc(99, 0), Self.cc(98, 5), Self.cc(6, 127), Self.cc(38, 90)]) == [100])
    }

    @Test(arguments: [(RelativeEncoding.twosComplement, UInt8(3), UInt8(125)),
                      (.signMagnitude, 3, 67), (.offset64, 67, 61)])
    func relativeEncodersStepUpAndDown(encoding: RelativeEncoding, up: UInt8, down: UInt8) {
        #expect(encoding.ticks(up) == 3)
        #expect(encoding.ticks(down) == -3)
        var engine = MappedValues([Mapping(source: .controller(20), mode: .relative(encoding), step: 0.01, targets: [Self.cutoff])], start: 50)
        let values = Self.values(&engine, [Self.cc(20, up), Self.cc(20, down), Self.cc(20, down)])
        #expect(values.map { ($0 * 1000).rounded() / 1000 } == [53, 50, 47])
    }

    @Test func aSecondMappingOfTheSameMessageStartsFromWhatTheFirstSet() {
        // Both move the cutoff by 3 %: the second from the first's value, not yet carried out.
        let nudge = Mapping(source: .controller(20), mode: .relative(.twosComplement), step: 0.01, targets: [Self.cutoff])
        var engine = MappedValues([nudge, nudge], start: 50)
        #expect(Self.values(&engine, [Self.cc(20, 3)]).map { ($0 * 1000).rounded() / 1000 } == [53, 56])
    }

    @Test func accelerationMakesFastTurnsCoverMore() {
        var engine = MappedValues([Mapping(source: .controller(20), mode: .relative(.twosComplement), step: 0.01,
                                            acceleration: 1, targets: [Self.cutoff])])
        // One tick moves 1 %, a tick of 4 moves 4 × (1 + 3) = 16 %.
        #expect(Self.values(&engine, [Self.cc(20, 1), Self.cc(20, 4)]).map { ($0 * 1000).rounded() / 1000 } == [1, 17])
    }

    @Test func pickupWaitsUntilTheKnobCrossesTheValue() {
        var engine = MappedValues([Mapping(source: .controller(74), pickup: .pickup, targets: [Self.cutoff])], start: 50)
        #expect(Self.values(&engine, [Self.cc(74, 10), Self.cc(74, 30)]).isEmpty)
        let crossed = Self.values(&engine, [Self.cc(74, 70), Self.cc(74, 80)])
        #expect(crossed.count == 2)
        #expect(abs(crossed[0] - 55.1) < 0.1)
        // Set elsewhere, the value must be picked up again.
        engine.valueChanged(node: "synth", parameter: "cutoff", to: 10)
        #expect(Self.values(&engine, [Self.cc(74, 90)]).isEmpty)
        #expect(Self.values(&engine, [Self.cc(74, 13)]).count == 1)
    }

    @Test func scaledPickupMovesTheValueTowardTheKnobUntilTheyMeet() {
        var engine = MappedValues([Mapping(source: .controller(74), pickup: .scaled, targets: [Self.cutoff])], start: 50)
        #expect(Self.values(&engine, [Self.cc(74, 0)]).isEmpty)  // where the knob is: unknown before
        let values = Self.values(&engine, [Self.cc(74, 127)])
        #expect(values == [100])  // the knob's end of travel is the range's end
        let down = Self.values(&engine, [Self.cc(74, 0)])
        #expect(down == [0])
    }

    @Test func buttonsMomentaryToggleTriggerAndVelocity() {
        var engine = MappedValues([
            Mapping(source: .note(36), mode: .button(.momentary), targets: [MappingTarget(node: "a", parameter: "p", low: 0, high: 1)]),
            Mapping(source: .note(37), mode: .button(.toggle), targets: [MappingTarget(node: "b", parameter: "p", low: 0, high: 1)]),
            Mapping(source: .controller(64), mode: .button(.trigger), targets: [MappingTarget(node: "c", parameter: "p", low: 0, high: 1)]),
            Mapping(source: .note(38), mode: .velocity, targets: [MappingTarget(node: "d", parameter: "p", low: 0, high: 127)]),
        ])
        let on = { (note: UInt8) in MIDIMessage.noteOn(channel: 9, note: note, velocity: 100) }
        let off = { (note: UInt8) in MIDIMessage.noteOff(channel: 9, note: note, velocity: 0) }
        #expect(Self.values(&engine, [on(36), off(36)]) == [1, 0])
        #expect(Self.values(&engine, [on(37), off(37), on(37), off(37)]) == [1, 0])
        #expect(Self.values(&engine, [Self.cc(64, 127), Self.cc(64, 0), Self.cc(64, 127)]) == [1, 1])
        #expect(Self.values(&engine, [on(38), off(38)]) == [100])
    }

    @Test func aLatchingButtonTapsOnAndOffButIsMomentaryWhenHeld() {
        var engine = MappedValues([Mapping(source: .note(40), mode: .button(.latch),
                                            targets: [MappingTarget(node: "n", parameter: "p", low: 0, high: 1)])])
        func at(_ time: Double, _ message: MIDIMessage) -> [Float] { Self.values(&engine, [message], time: time) }
        let down = MIDIMessage.noteOn(channel: 0, note: 40, velocity: 90), up = MIDIMessage.noteOff(channel: 0, note: 40, velocity: 0)
        #expect(at(0, down) + at(0.1, up) == [1])  // a tap: on, and stays on
        #expect(at(1, down) + at(1.1, up) == [1, 0])  // a tap while on: off
        #expect(at(2, down) + at(3, up) == [1, 0])  // held a second: on only while held
    }

    @Test func channelSourceNodeAndPassDecideWhatIsTaken() {
        var engine = MappedValues([
            Mapping(from: "pads", channel: 9, source: .controller(1), targets: [Self.cutoff]),
            Mapping(source: .controller(2), passes: true, targets: [MappingTarget(node: "x", parameter: "p", low: 0, high: 1)]),
        ])
        var changes: [MappingEngine.Change] = []
        #expect(!engine.handle(Self.cc(1, 127, channel: 9), device: 1, sources: ["keys"], time: 0, into: &changes))
        #expect(!engine.handle(Self.cc(1, 127, channel: 0), device: 1, sources: ["pads"], time: 0, into: &changes))
        #expect(changes.isEmpty)
        #expect(engine.handle(Self.cc(1, 127, channel: 9), device: 1, sources: ["keys", "pads"], time: 0, into: &changes))
        #expect(!engine.handle(Self.cc(2, 127), device: 1, sources: [], time: 0, into: &changes))
        #expect(changes.map(\.node) == ["synth", "x"])
    }

    @Test func oneControlDrivesManyTargetsEachWithItsOwnRangeAndCurve() {
        var engine = MappedValues([Mapping(source: .controller(1), targets: [
            MappingTarget(node: "a", parameter: "p", low: 0, high: 10),
            MappingTarget(node: "b", parameter: "p", low: -60, high: 0, invert: true),
            MappingTarget(node: "c", parameter: "p", low: 0, high: 1, steps: 3),
            MappingTarget(node: "d", parameter: "p", low: 0, high: 0, values: [5, 7, 9]),
        ])])
        #expect(Self.values(&engine, [Self.cc(1, 127)]) == [10, -60, 1, 9])
        #expect(Self.values(&engine, [Self.cc(1, 0)]) == [0, 0, 0, 5])
        #expect(Self.values(&engine, [Self.cc(1, 60)]).suffix(2) == [0.5, 7])
    }

    @Test(arguments: MappingCurve.allCases)
    func everyCurveRunsEndToEndAndInverts(curve: MappingCurve) {
        #expect(abs(curve.apply(0)) < 1e-12 && abs(curve.apply(1) - 1) < 1e-12)
        for x in stride(from: 0.0, through: 1, by: 0.05) {
            #expect(abs(curve.inverse(curve.apply(x)) - x) < 1e-9)
        }
    }

    @Test func theExponentialCurveSpreadsAFrequencyRangeEvenlyInOctaves() {
        let target = MappingTarget(node: "n", parameter: "cutoff", low: 20, high: 20020, curve: .exponential)
        #expect(abs(target.value(at: 0.5) - (20 + 20000.0 / 11)) < 0.5)
        #expect(abs(target.position(of: target.value(at: 0.3)) - 0.3) < 1e-6)
    }
}
