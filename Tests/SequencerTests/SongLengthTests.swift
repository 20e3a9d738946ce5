import MIDICore
import Testing
import Transport

/// The transport plays songs of up to a day; longer ones (huge delta times, a tempo of a
/// quarter note a quarter minute) are refused with one line before anything plays.
@Suite struct SongLengthTests {
    /// One note, then the end of the track `ticks` later, at `microsecondsPerQuarter` and 1 tick a quarter.
    private func song(endingAfter ticks: UInt64, microsecondsPerQuarter: UInt32) -> Song {
        let track = MIDITrack(events: [TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: microsecondsPerQuarter))),
                                       TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 100))),
                                       TrackEvent(tick: 1, .midi(.noteOff(channel: 0, note: 60, velocity: 0)))],
                              endTick: ticks)
        return Song(file: MIDIFile(format: 0, division: .ticksPerQuarter(1), tracks: [track]), name: "test.mid")
    }

    @Test func aDayPlaysAndLongerIsRefusedWithOneLine() {
        // 86,400 quarters of a second: exactly a day.
        #expect(song(endingAfter: 86_400, microsecondsPerQuarter: 1_000_000).refusal(path: "/songs/day.mid") == nil)
        // Three deltas of 0x0FFFFFFF ticks at 16.7 s a quarter: about 3.7 million hours.
        let centuries = song(endingAfter: 3 * 0x0FFF_FFFF, microsecondsPerQuarter: 0xFF_FFFF)
        let refusal = centuries.refusal(path: "/songs/broken.mid")
        #expect(refusal?.problem.hasPrefix("/songs/broken.mid lasts 37") == true, "\(refusal?.problem ?? "accepted")")
        #expect(refusal?.problem.hasSuffix("hours; the transport plays songs of up to 24 hours") == true)
        #expect(refusal?.fix == "check the file's delta times and tempo ('midihub info /songs/broken.mid')")
        #expect(!(refusal?.problem.contains("\n") ?? true))
    }
}
