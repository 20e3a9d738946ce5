import Hub
import HubTestSupport
import MIDICore
import Plugins
import RenderCore
import Testing

/// LV2 MIDI effects from Debian (lv2-examples' eg-fifths, x42-plugins' MIDI filters, whose
/// atom ports declare no buffer size) run as the router's MIDI processors: what they write
/// leaves at the frame it belongs to on the hub's clock.
@Suite struct LV2MIDIProcessorTests {
    static let plugins = InstalledPlugins()

    static func processor(_ reference: String, values: [String: Float] = [:]) throws -> ProcessorNode {
        let descriptor = try plugins.descriptor(for: reference)
        #expect(descriptor.kind == .midiProcessor, "a MIDI effect is a MIDI processor node")
        var node = ProcessorNode(try #require(plugins.makeProcessor(descriptor)))
        for (name, value) in values { try node.set(name, to: value) }
        return node
    }

    static let second = HostDuration(seconds: 1)

    @Test func eachFifthLeavesAtTheExactTimeOfItsNote() throws {
        var fifths = try Self.processor("eg-fifths")
        var output: [TimedMIDI] = []
        let start = HostTime.zero + Self.second, later = start + HostDuration(seconds: 0.123_456_789)
        fifths.process(TimedMIDI(time: start, message: .noteOn(channel: 2, note: 60, velocity: 90)), into: &output)
        fifths.process(TimedMIDI(time: later, message: .noteOff(channel: 2, note: 60, velocity: 0)), into: &output)
        #expect(output == [TimedMIDI(time: start, message: .noteOn(channel: 2, note: 60, velocity: 90)),
                           TimedMIDI(time: start, message: .noteOn(channel: 2, note: 67, velocity: 90)),
                           TimedMIDI(time: later, message: .noteOff(channel: 2, note: 60, velocity: 0)),
                           TimedMIDI(time: later, message: .noteOff(channel: 2, note: 67, velocity: 0))])
    }

    @Test func anX42FilterWithUndeclaredAtomSizesLoadsAndFollowsItsParameters() throws {
        var transpose = try Self.processor("MIDI Note Transpose", values: ["k0": 2])
        #expect(transpose.parameters.infos.map(\.name).prefix(3) == ["channelf", "k0", "k1"], "the control inputs, in port order")
        var output: [TimedMIDI] = []
        transpose.process(TimedMIDI(time: .zero + Self.second, message: .noteOn(channel: 0, note: 60, velocity: 100)), into: &output)
        #expect(output.map(\.message) == [.noteOn(channel: 0, note: 62, velocity: 100)], "C up a tone (k0: +2)")
        output = []
        transpose.process(TimedMIDI(time: .zero + Self.second * 2, message: .noteOff(channel: 0, note: 60, velocity: 0)), into: &output)
        #expect(output.map(\.message) == [.noteOff(channel: 0, note: 62, velocity: 0)], "and its note-off with it")
        var plain = try Self.processor("MIDI Note Transpose")
        output = []
        plain.process(TimedMIDI(time: .zero + Self.second, message: .noteOn(channel: 0, note: 60, velocity: 100)), into: &output)
        #expect(output.map(\.message) == [.noteOn(channel: 0, note: 60, velocity: 100)], "at its defaults, C stays C")
    }

    @Test func aDelayedNoteLeavesAtItsFrameWhenTheRouterGenerates() throws {
        // A quarter note at 120 BPM from the control port: half a second.
        var delay = try Self.processor("MIDI Delayline", values: ["bpmsrc": 0, "delayBPM": 120, "delayBeats": 1])
        var output: [TimedMIDI] = []
        let played = HostTime.zero + Self.second
        delay.process(TimedMIDI(time: played, message: .noteOn(channel: 0, note: 64, velocity: 80)), into: &output)
        #expect(output.isEmpty, "nothing at once")
        let clock = TempoClock(beatsPerMinute: 120)
        delay.generate(from: played, to: played + HostDuration(seconds: 0.3), clock: clock, into: &output)
        #expect(output.isEmpty, "nor after 0.3 s")
        delay.generate(from: played + HostDuration(seconds: 0.3), to: played + HostDuration(seconds: 0.7), clock: clock, into: &output)
        let delayed = try #require(output.first)
        #expect(output.count == 1 && delayed.message == .noteOn(channel: 0, note: 64, velocity: 80))
        let late = (delayed.time - played).seconds
        #expect(abs(late - 0.5) <= 1.0 / 48_000, "half a second later, to the frame: \(late) s")
    }
}
