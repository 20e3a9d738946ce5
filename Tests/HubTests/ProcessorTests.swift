import HubTestSupport
import MIDICore
import Testing
@testable import Hub

/// Runs events through a processor and returns everything it emitted.
func run(_ node: inout ProcessorNode, _ events: [TimedMIDI]) -> [TimedMIDI] {
    var output: [TimedMIDI] = []
    for event in events { node.process(event, into: &output) }
    return output
}

func on(_ note: UInt8, _ time: Double = 0, channel: UInt8 = 0, velocity: UInt8 = 100) -> TimedMIDI {
    TimedMIDI(time: HostTime(seconds: time), message: .noteOn(channel: channel, note: note, velocity: velocity))
}

func off(_ note: UInt8, _ time: Double = 0, channel: UInt8 = 0) -> TimedMIDI {
    TimedMIDI(time: HostTime(seconds: time), message: .noteOff(channel: channel, note: note, velocity: 0))
}

@Suite struct TransposeTests {
    @Test func shiftsNotesAndKeepsTimestamps() throws {
        var transpose = ProcessorNode(Transpose())
        try transpose.set("semitones", to: 12)
        let out = run(&transpose, [on(60, 1.25), off(60, 2.5)])
        #expect(out == [on(72, 1.25), off(72, 2.5)])
    }

    @Test func noteOffMatchesNoteOnAfterParameterChange() throws {
        var transpose = ProcessorNode(Transpose())
        try transpose.set("semitones", to: 5)
        var out = run(&transpose, [on(60)])
        try transpose.set("semitones", to: -7)
        out += run(&transpose, [off(60)])
        #expect(out == [on(65), off(65)])
    }

    @Test func dropsNotesOutOfRangeAndPassesOthers() throws {
        var transpose = ProcessorNode(Transpose())
        try transpose.set("semitones", to: 10)
        let bend = TimedMIDI(time: 3, message: .pitchBend(channel: 2, value: 9000))
        #expect(run(&transpose, [on(120), off(120), bend]) == [bend])
    }

    @Test func unknownParameterIsATypedError() {
        var transpose = ProcessorNode(Transpose())
        #expect(throws: ParameterError.unknown("semis", known: ["semitones"])) { try transpose.set("semis", to: 1) }
        #expect(ParameterError.unknown("semis", known: ["semitones"]).description.contains("fix: use one of semitones"))
    }

    @Test func valuesAreClamped() throws {
        var transpose = ProcessorNode(Transpose())
        try transpose.set("semitones", to: 1000)
        #expect(transpose.parameters.value(named: "semitones") == 48)
    }
}

@Suite struct ChannelMapTests {
    @Test func remapsAndDrops() throws {
        var map = ProcessorNode(ChannelMap())
        try map.set("ch1", to: 10)
        try map.set("ch2", to: 0)
        let cc = TimedMIDI(time: 1, message: .controlChange(channel: 0, controller: 7, value: 99))
        let dropped = TimedMIDI(time: 1, message: .controlChange(channel: 1, controller: 7, value: 99))
        let clock = TimedMIDI(time: 2, message: .clock)
        let out = run(&map, [on(60, channel: 0), cc, dropped, on(61, channel: 1), clock, off(60, channel: 0)])
        #expect(out == [on(60, channel: 9), TimedMIDI(time: 1, message: .controlChange(channel: 9, controller: 7, value: 99)),
                        clock, off(60, channel: 9)])
    }

    @Test func filterPassesOnlyChosenChannels() {
        var map = ProcessorNode(ChannelMap(passing: [3]))
        #expect(run(&map, [on(60, channel: 0), on(61, channel: 2)]) == [on(61, channel: 2)])
    }
}

@Suite struct KeyZonesTests {
    let zones = [KeyZone(low: 0, high: 59, channel: 1, transpose: 12), KeyZone(low: 60, high: 127, channel: 2)]

    @Test func splitsByKeyRange() {
        var split = ProcessorNode(KeyZones(zones: zones))
        let out = run(&split, [on(40), on(64), off(40), off(64)])
        #expect(out == [on(52, channel: 0), on(64, channel: 1), off(52, channel: 0), off(64, channel: 1)])
    }

    @Test func overlappingZonesLayerAndSustainGoesToEveryZone() throws {
        var layer = ProcessorNode(KeyZones(zones: [KeyZone(low: 0, high: 127, channel: 1), KeyZone(low: 60, high: 72, channel: 2)]))
        let sustain = TimedMIDI(time: 0.5, message: .controlChange(channel: 0, controller: 64, value: 127))
        let out = run(&layer, [on(64), sustain])
        #expect(out == [on(64, channel: 0), on(64, channel: 1),
                        TimedMIDI(time: 0.5, message: .controlChange(channel: 0, controller: 64, value: 127)),
                        TimedMIDI(time: 0.5, message: .controlChange(channel: 1, controller: 64, value: 127))])
    }

    @Test func movingTheSplitPointWhileHeldReleasesTheRightNote() throws {
        var split = ProcessorNode(KeyZones(zones: zones))
        var out = run(&split, [on(59)])
        try split.set("zone1.high", to: 50)
        try split.set("zone2.low", to: 51)
        out += run(&split, [off(59)])
        #expect(out == [on(71, channel: 0), off(71, channel: 0)])
        #expect(split.parameters.infos.map(\.name).prefix(4) == ["zone1.low", "zone1.high", "zone1.channel", "zone1.transpose"])
    }
}

@Suite struct VelocityCurveTests {
    /// The velocity the curve makes of `velocity` with `node`'s values.
    func map(_ node: ProcessorNode, _ velocity: UInt8) -> UInt8 {
        VelocityCurve().map(velocity, parameters: node.parameters)
    }

    @Test func identityByDefault() {
        let curve = ProcessorNode(VelocityCurve())
        for velocity in UInt8(1)...127 { #expect(map(curve, velocity) == velocity) }
    }

    @Test func curveAndRangeShapeVelocities() throws {
        var curve = ProcessorNode(VelocityCurve())
        try curve.set("curve", to: 2)
        #expect(map(curve, 64) == 32)
        try curve.set("curve", to: 1)
        try curve.set("min", to: 40)
        try curve.set("max", to: 100)
        #expect(map(curve, 127) == 100)
        #expect(map(curve, 1) == 40)
        try curve.set("scale", to: 0)
        #expect(map(curve, 127) == 40)
    }

    @Test func neverTurnsNoteOnIntoNoteOff() throws {
        var curve = ProcessorNode(VelocityCurve())
        try curve.set("min", to: 1)
        try curve.set("scale", to: 0)
        let out = run(&curve, [on(60, velocity: 5), off(60)])
        #expect(out == [on(60, velocity: 1), off(60)])
    }
}

@Suite struct ControllerMapTests {
    @Test func remapsDropsAndFilters() throws {
        var map = ProcessorNode(ControllerMap(routes: [.init(from: 1, to: 74), .init(from: 7, to: nil)]))
        func cc(_ controller: UInt8) -> TimedMIDI {
            TimedMIDI(time: 1, message: .controlChange(channel: 3, controller: controller, value: 50))
        }
        #expect(run(&map, [cc(1), cc(7), cc(10), on(60)]) == [cc(74), cc(10), on(60)])
        try map.set("pass unmapped", to: 0)
        #expect(run(&map, [cc(1), cc(10)]) == [cc(74)])
    }
}

@Suite struct ChordGeneratorTests {
    @Test func playsAndReleasesTheChord() throws {
        var chord = ProcessorNode(ChordGenerator(intervals: [4, 7]))
        var out = run(&chord, [on(60, 0.5)])
        #expect(out == [on(60, 0.5), on(64, 0.5), on(67, 0.5)])
        try chord.set("interval2", to: 9)
        out = run(&chord, [off(60, 1)])
        #expect(out == [off(60, 1), off(64, 1), off(67, 1)])
    }

    @Test func skipsDuplicatesAndOutOfRange() {
        var chord = ProcessorNode(ChordGenerator(intervals: [12, 12, 24]))
        #expect(run(&chord, [on(110)]) == [on(110), on(122)])
    }
}
