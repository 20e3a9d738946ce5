import MIDICore
import Testing
import Transport

/// The transport plays songs of up to a day; longer ones (huge delta times, a tempo of a
/// quarter note a quarter minute) are refused with one line before anything plays.
@Suite struct SongLengthTests {
    /// One note, then the end of the track `ticks` later, at `microsecondsPerQuarter` and 1 tick a quarter.
    private func song(endingAfter ticks: Tick, microsecondsPerQuarter: UInt32) -> Song {
        let track = MIDITrack(events: [TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: microsecondsPerQuarter))),
                                       TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 100))),
                                       TrackEvent(tick: 1, .midi(.noteOff(channel: 0, note: 60, velocity: 0)))],
                              endTick: ticks)
        return Song(file: MIDIFile(format: 0, division: .ticksPerQuarter(1), tracks: [track]), name: "test.mid")
    }

    @Test func aDayPlaysAndLongerIsRefusedWithOneLine() {
        // 86,400 quarters of a second: exactly a day.
        #expect(song(endingAfter: 86_400, microsecondsPerQuarter: 1_000_000).refusal(path: "/songs/day.mid") == nil)
        // 100 hours of quarters of a second.
        #expect(song(endingAfter: 360_000, microsecondsPerQuarter: 1_000_000).refusal(path: "/songs/long.mid")?.problem
            == "/songs/long.mid lasts 100 hours; the transport plays songs of up to 24 hours")
        // Three deltas of 0x0FFFFFFF ticks at 16.7 s a quarter: about 3.7 million hours, past
        // what host time holds.
        let centuries = song(endingAfter: Tick(3 * 0x0FFF_FFFF), microsecondsPerQuarter: 0xFF_FFFF)
        let refusal = centuries.refusal(path: "/songs/broken.mid")
        #expect(refusal?.problem == "/songs/broken.mid lasts more than 292 years; the transport plays songs of up to 24 hours",
                "\(refusal?.problem ?? "accepted")")
        #expect(refusal?.fix == "check the file's delta times and tempo ('midihub info /songs/broken.mid')")
        #expect(!(refusal?.problem.contains("\n") ?? true))
    }
}
