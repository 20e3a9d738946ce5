import MIDICore
import Sequencer
import Transport
import Testing

/// `midihub record`'s file: arecordmidi's layout, ticks from arrival times.
@Suite struct MIDIRecordingTests {
    @Test func keepsChannelMessagesAndSysExAtTheirTicksOnePerSource() throws {
        var recording = MIDIRecording(options: .init(beatsPerMinute: 100, ticksPerQuarter: 480), sources: ["Keys:in", "Pads:in"])
        recording.record(.noteOn(channel: 0, note: 60, velocity: 90), after: HostDuration(seconds: 0.6), source: 0)
        recording.record(.clock, after: HostDuration(seconds: 0.61), source: 0)
        recording.record(.controlChange(channel: 9, controller: 7, value: 100), after: HostDuration(seconds: 0.9), source: 1)
        recording.record(.sysEx([0x7E, 0x7F, 0x09, 0x01]), after: HostDuration(seconds: 1.0), source: 1)
        recording.record(.noteOff(channel: 0, note: 60, velocity: 0), after: HostDuration(seconds: 1.2), source: 0)
        #expect(recording.count == 4)
        let file = recording.file(endingAfter: HostDuration(seconds: 3))
        #expect(file.division == .ticksPerQuarter(480))
        #expect(file.tracks.count == 3)
        #expect(file.tracks[0].events.first?.kind == .meta(.tempo(microsecondsPerQuarter: 600_000)))
        #expect(file.tracks[1].name == "Keys:in")
        #expect(file.tracks[1].events.dropFirst().map(\.tick) == [480, 960])  // 0.6 s and 1.2 s at 100 BPM
        #expect(file.tracks[2].events.dropFirst().map(\.kind) == [.midi(.controlChange(channel: 9, controller: 7, value: 100)),
                                                                  .sysEx([0x7E, 0x7F, 0x09, 0x01, 0xF7])])
        #expect(file.tracks.allSatisfy { $0.endTick == 2400 })
        // What the file holds survives writing and reading it back.
        #expect(try MIDIFile(smf: file.smfBytes()).tracks[1].events.map(\.tick) == [0, 480, 960])
    }

    @Test func splitByChannelMakesATrackPerChannelThatPlayed() {
        var recording = MIDIRecording(options: .init(splitChannels: true), sources: ["Keys:in"])
        recording.record(.noteOn(channel: 0, note: 60, velocity: 90), after: HostDuration(seconds: 0), source: 0)
        recording.record(.noteOn(channel: 9, note: 36, velocity: 90), after: HostDuration(seconds: 0.5), source: 0)
        let names = recording.file(endingAfter: HostDuration(seconds: 1)).tracks.dropFirst().map(\.name)
        #expect(names == ["Keys:in channel 1", "Keys:in channel 10"])
    }

    @Test func aStampBehindTheLastKeepsTheLastTick() {
        var recording = MIDIRecording(options: .init(), sources: ["Keys:in"])
        recording.record(.noteOn(channel: 0, note: 60, velocity: 90), after: HostDuration(seconds: 1.0), source: 0)
        recording.record(.noteOff(channel: 0, note: 60, velocity: 0), after: HostDuration(seconds: 0.999), source: 0)
        #expect(recording.file(endingAfter: HostDuration(seconds: 1)).tracks[1].events.dropFirst().map(\.tick) == [768, 768])
    }
}
