import MIDICore
import Sequencer
import Transport
import Testing

/// An overdub onto the four-bar song of `SongPlayerTests` (480 ticks per quarter, 7680 ticks).
@Suite struct OverdubTests {
    @Test func theTakeBecomesANewTrackOfTheSongInTickOrder() throws {
        let song = try SongPlayerTests.song()
        var take = Overdub(endTick: song.endTick)
        take.record(.noteOn(channel: 0, note: 72, velocity: 99), atTick: Tick(960) + Tick(units: Tick.unitsPerTick * 2 / 5))  // 960.4: the nearest tick, 960
        take.record(.controlChange(channel: 0, controller: 64, value: 127), atTick: 1000)
        take.record(.noteOff(channel: 0, note: 72, velocity: 0), atTick: 1440)
        take.record(.clock, atTick: 1500)
        take.record(.sysEx([0x7E, 0x7F, 0x09, 0x01]), atTick: 1600)
        #expect(take.count == 4, "clock is not kept")
        let file = take.merged(into: song, trackName: "overdub")
        #expect(file.tracks.count == song.file.tracks.count + 1)
        #expect(Array(file.tracks.dropLast()) == song.file.tracks, "the song's own tracks are untouched")
        let track = try #require(file.tracks.last)
        #expect(track.name == "overdub")
        #expect(track.events.map(\.tick) == [0, 960, 1000, 1440, 1600])
        let merged = Song(file: file, name: song.name)
        #expect(merged.events.contains(Song.Event(tick: 960, message: .noteOn(channel: 0, note: 72, velocity: 99))))
        #expect(merged.events.count == song.events.count + 3)
        #expect(try MIDIFile(smf: file.smfBytes()) == file, "the take writes and reads back")
    }

    @Test func aNoteHeldAcrossALoopAndOneStillHeldEndAtTheSongsEnd() throws {
        let song = try SongPlayerTests.song()
        var take = Overdub(endTick: song.endTick)
        take.record(.noteOn(channel: 1, note: 50, velocity: 80), atTick: 7000)
        take.record(.noteOff(channel: 1, note: 50, velocity: 0), atTick: 200)  // the loop went back to the start
        take.record(.noteOn(channel: 1, note: 52, velocity: 80), atTick: 300)
        take.record(.noteOn(channel: 1, note: 53, velocity: 80), atTick: 99_999)  // past the end: at the end
        let track = try #require(take.merged(into: song, trackName: "overdub").tracks.last)
        let offs = track.events.compactMap { event -> (Tick, UInt8)? in
            if case .midi(.noteOff(_, let note, _)) = event.kind { (event.tick, note) } else { nil }
        }
        #expect(offs.map(\.0) == [7680, 7680, 7680] && Set(offs.map(\.1)) == [50, 52, 53])
        #expect(track.events.map(\.tick) == track.events.map(\.tick).sorted())
    }
}

extension SongPlayerTests {
    /// An overdubbed song put in while playing takes over where playing next starts (the
    /// loop's start): nothing handed out twice, the take's note played from then on.
    @Test func aReplacedSongPlaysFromTheNextStart() throws {
        let song = try Self.song()
        var player = SongPlayer()
        _ = player.load(song, at: 0)
        player.setLoop(SongPlayer.Loop(start: 0, end: 1920))  // bar 1: 2 s at 120 BPM
        _ = player.play(at: 0)
        var events = player.due(until: 1)
        var take = Overdub(endTick: song.endTick)
        take.record(.noteOn(channel: 0, note: 84, velocity: 99), atTick: 480)
        take.record(.noteOff(channel: 0, note: 84, velocity: 0), atTick: 720)
        player.replaceSong(Song(file: take.merged(into: song, trackName: "overdub"), name: song.name))
        events += player.due(until: 4)
        let notes = Self.notesOn(events)
        #expect(notes.map(\.note) == [60, 62, 64, 65, 60, 62, 84, 64, 65], "\(notes)")
        #expect(notes.first { $0.note == 84 }?.time == 2.5)
    }
}

/// Count-ins on the four-bar song (4/4 at 120 BPM) and on the waltz text (6/8).
@Suite struct CountInTests {
    @Test func oneBarOfTheSongsMeterBeforeThePosition() throws {
        let song = try SongPlayerTests.song()
        let top = CountIn(bars: 1, before: 0, of: song, tempo: 120)
        #expect(top.length == 2)
        #expect(top.host.beat == -4 && top.host.barStartBeat == -4 && top.host.bar == 0)
        #expect(top.host.transport == .playing && top.host.tempo == 120)
        let third = CountIn(bars: 2, before: 3840, of: song, tempo: 90)
        #expect(third.length == HostDuration(seconds: 8 * 60 / 90.0), "to the nanosecond")
        #expect(third.host.beat == 0 && third.host.bar == 1 && third.host.timeSignatureNumerator == 4)
        #expect(CountIn(bars: 0, before: 960, of: song, tempo: 120).length == .zero)
    }

    @Test func aCompoundMeterCountsItsWholeBar() throws {
        let song = Song(file: try SequenceText.parse("ppq 480\ntempo 120\ntime 6/8\ntrack \"T\"\n  1:1 C4 1/8"), name: "six-eight.song")
        let countIn = CountIn(bars: 1, before: 0, of: song, tempo: 120)
        #expect(countIn.host.beat == -3 && countIn.length == 1.5)
        #expect(countIn.host.timeSignatureNumerator == 6 && countIn.host.timeSignatureDenominator == 8)
    }
}
