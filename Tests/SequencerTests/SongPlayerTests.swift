import MIDICore
import Sequencer
import Transport
import Testing

/// The transport's player on a song of four bars at 120 BPM (ppq 480: a quarter is 0.5 s),
/// quarter notes C4 D4 E4 F4 per bar, a program and a volume set at the start and changed in
/// bar 3, a marker at bar 3.
@Suite struct SongPlayerTests {
    static let text = """
        ppq 480
        tempo 120
        time 4/4
        1:1 marker "verse"
        3:1 marker "chorus"
        track "Piano" channel 1 program 1
        default len 1/4 vel 90
          1:1 cc volume = 100
          1:1 C4
          1:2 D4
          1:3 E4
          1:4 F4
          2:1 C4
          2:2 D4
          2:3 E4
          2:4 F4
          3:1 program 30
          3:1 cc volume = 80
          3:1 bend +1000
          3:1 C4
          3:2 D4
          3:3 E4
          3:4 F4
          4:1 C4 1/1
        """

    static func song() throws -> Song {
        Song(file: try SequenceText.parse(text), name: "four-bars.song")
    }

    static func notesOn(_ events: [SongPlayer.Scheduled]) -> [(time: Double, note: UInt8)] {
        events.compactMap { if case .noteOn(_, let note, let velocity) = $0.message, velocity > 0 { ($0.time.seconds, note) } else { nil } }
    }

    @Test func playsEveryEventAtItsTimeFromTheAnchor() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        let start = player.play(at: 10)
        #expect(start == [SongPlayer.Scheduled(time: 10, message: .start)])
        var events: [SongPlayer.Scheduled] = []
        var horizon = 10.0
        while player.state == .playing && horizon < 30 {
            horizon += 0.1
            events += player.due(until: TransportTime(seconds: horizon))
        }
        let notes = Self.notesOn(events)
        #expect(notes.count == 13)
        #expect(notes.map(\.time) == (0..<13).map { 10 + Double($0) * 0.5 })
        #expect(events.map(\.time) == events.map(\.time).sorted())
        #expect(player.state == .stopped)
        #expect(player.endings == 1)
        #expect(events.last?.time == 18)  // the whole note of bar 4 ends at 8 s
    }

    @Test func dueHandsOutEachEventOnceUpToTheHorizon() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        _ = player.play(at: 0)
        let first = player.due(until: 0.6)
        #expect(Self.notesOn(first).map(\.note) == [60, 62])
        #expect(player.due(until: 0.6).isEmpty)
        #expect(Self.notesOn(player.due(until: 1.6)).map(\.note) == [64, 65])
    }

    @Test func pauseEndsHeldNotesAndResumesWhereItStopped() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        _ = player.play(at: 0)
        _ = player.due(until: 0.35)  // C4 on at 0, off at 0.5 (handed out: no), D4 not yet
        let offs = player.pause(at: 0.25)
        #expect(offs == [SongPlayer.Scheduled(time: 0.25, message: .noteOff(channel: 0, note: 60, velocity: 0)),
                         SongPlayer.Scheduled(time: 0.25, message: .stop)])
        #expect(player.position(at: 5) == 240)  // half a quarter
        let resumed = player.play(at: 7) ?? []
        #expect(resumed.contains(SongPlayer.Scheduled(time: 7, message: .controlChange(channel: 0, controller: 7, value: 100))))
        #expect(Self.notesOn(player.due(until: 7.3)).map(\.time) == [7.25])  // D4, a quarter after C4's start
    }

    @Test func aCutEndsNotesWhoseOffWasHandedOutButMayBeDropped() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        _ = player.play(at: 0)
        _ = player.due(until: 0.55)  // C4's off at 0.5 handed out, D4 on at 0.5
        let offs = player.stop(at: 0.45).map(\.message)
        #expect(offs.last == .stop)
        #expect(Set(offs.dropLast()) == [.noteOff(channel: 0, note: 60, velocity: 0), .noteOff(channel: 0, note: 62, velocity: 0)])
        #expect(player.state == .stopped)
        #expect(player.position(at: 1) == 0)
    }

    @Test func seekChasesProgramControllersAndBend() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        _ = player.play(at: 0)
        let song = try Self.song()
        let tick = try #require(TransportPosition(parsing: "3:2").tick(in: song))
        let out = player.seek(to: tick, at: 1).map(\.message)
        // The clock stops and goes on from the sixteenth of 3:2 (36), then the channels are chased.
        #expect(out == [.stop, .songPosition(36), .continue, .programChange(channel: 0, program: 29),
                        .controlChange(channel: 0, controller: 7, value: 80), .pitchBend(channel: 0, value: 8192 + 1000)])
        #expect(Self.notesOn(player.due(until: 1.1)).map(\.note) == [62])
    }

    @Test func chaseOrdersBankThenProgramThenControllers() throws {
        let song = try Self.song()
        let chase = song.chase(before: try #require(TransportPosition(parsing: "4").tick(in: song)))
        #expect(chase == [.programChange(channel: 0, program: 29), .controlChange(channel: 0, controller: 7, value: 80),
                          .pitchBend(channel: 0, value: 9192)])
        #expect(song.chase(before: 0).isEmpty)
    }

    @Test func loopsTheRegionEndingNotesAndChasingItsStart() throws {
        var player = SongPlayer()
        let song = try Self.song()
        _ = player.load(song, at: 0)
        player.setLoop(SongPlayer.Loop(start: try #require(TransportPosition(parsing: "2").tick(in: song)),
                                       end: try #require(TransportPosition(parsing: "3").tick(in: song))))
        _ = player.play(at: 0)
        let events = player.due(until: 6.1)
        let notes = Self.notesOn(events)
        // Bar 1 (0…2 s), bar 2 (2…4 s), bar 2 again (4…6 s), and its first note at 6 s.
        #expect(notes.map(\.time) == [0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5, 6])
        #expect(player.state == .playing)
        #expect(player.endings == 0)
        let atLoopEnd = events.filter { $0.time == 4 }.map(\.message)
        #expect(atLoopEnd.contains(.controlChange(channel: 0, controller: 7, value: 100)))  // the chase of bar 2
        #expect(!atLoopEnd.contains(.programChange(channel: 0, program: 29)))
    }

    @Test func tempoOverrideLastsAcrossSeeksAndTakesEffectAfterWhatWasHandedOut() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        _ = player.play(at: 0)
        _ = player.due(until: 0.1)
        player.overrideTempo(60, at: 0.05)  // a quarter is now 1 s, from 0.1 s (tick 96) on
        #expect(player.tempo(atTick: 0) == 60)
        #expect(Self.notesOn(player.due(until: 0.85)).isEmpty)
        let next = Self.notesOn(player.due(until: 1.2))
        #expect(next.count == 1)
        #expect(abs((next.first?.time ?? 0) - 0.9) < 1e-9)  // D4: 384 ticks after tick 96, at 1 s per quarter
        _ = player.seek(to: 0, at: 2)
        #expect(Self.notesOn(player.due(until: 3.05)).map(\.time) == [2, 3])
        player.overrideTempo(nil, at: 3.05)
        #expect(player.tempo(atTick: 0) == 120)
    }

    @Test func positionsParseBarsTimesAndMarkers() throws {
        let song = try Self.song()
        #expect(TransportPosition(parsing: "2").tick(in: song) == 1920)
        #expect(TransportPosition(parsing: "2:3").tick(in: song) == 2880)
        #expect(TransportPosition(parsing: "1.5s").tick(in: song) == 1440)
        #expect(TransportPosition(parsing: "chorus").tick(in: song) == 3840)
        #expect(TransportPosition(parsing: "bridge").tick(in: song) == nil)
        #expect(TransportPosition(parsing: "99").tick(in: song) == song.endTick)
        #expect(TransportPosition(parsing: "0:1") == .marker("0:1"))
    }

    @Test func playWithoutASongIsRefused() {
        var player = SongPlayer()
        #expect(player.play(at: 0) == nil)
        #expect(player.due(until: 10).isEmpty)
    }
}

extension SongPlayerTests {
    @Test func playingFromABarLineSendsNoNoteOffForNotesThatEndedThere() throws {
        var player = SongPlayer()
        let song = try Self.song()
        _ = player.load(song, at: 0)
        _ = player.seek(to: try #require(TransportPosition(parsing: "2").tick(in: song)), at: 0)
        _ = player.play(at: 0)
        let first = player.due(until: 0.01).map(\.message)
        #expect(first == [.clock, .noteOn(channel: 0, note: 60, velocity: 90)])  // not bar 1's F4 ending at 2:1
    }
}

extension SongPlayerTests {
    @Test func theClockPulses24TimesAQuarterAndFollowsTheTransport() throws {
        var player = SongPlayer()
        let song = try Self.song()
        _ = player.load(song, at: 0)
        #expect(player.play(at: 0)?.map(\.message) == [.start])
        let pulses = player.due(until: 0.999).filter { $0.message == .clock }.map(\.time.seconds)
        #expect(pulses.count == 48)  // 120 BPM: two quarters a second
        #expect(zip(pulses, pulses.dropFirst()).allSatisfy { abs($1 - $0 - 1.0 / 48) < 2e-9 }, "each to its nearest nanosecond")
        #expect(player.pause(at: 0.5).map(\.message).last == .stop)
        #expect(player.play(at: 2)?.prefix(2).map(\.message) == [.songPosition(4), .continue])  // 1:3, the fifth sixteenth
        #expect(player.stop(at: 3).map(\.message).last == .stop)
        #expect(player.seek(to: 1920, at: 4).map(\.message) == [.songPosition(16)])  // stopped: the position alone
    }

    @Test func theClockStopsAtTheEndAndStartsOverAtALoop() throws {
        var player = SongPlayer()
        let song = try Self.song()
        _ = player.load(song, at: 0)
        player.setLoop(SongPlayer.Loop(start: 1920, end: 3840))
        _ = player.play(at: 0)
        let around = player.due(until: 4.01).filter { $0.time == 4 && $0.message.channel == nil }.map(\.message)
        #expect(around == [.stop, .songPosition(16), .continue, .clock])
        player.setLoop(nil)
        var rest: [SongPlayer.Scheduled] = []
        var horizon = 4.01
        while player.state == .playing { horizon += 0.5; rest += player.due(until: TransportTime(seconds: horizon)) }
        #expect(rest.last?.message == .stop)
    }
}

extension SongPlayerTests {
    @Test func aStopBeforeALoopsEndEndsTheNotesTheLoopsEndWouldHaveEnded() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        player.setLoop(SongPlayer.Loop(start: 0, end: 1680))  // ends inside F4 (1:4, ticks 1440…1920)
        _ = player.play(at: 0)
        _ = player.due(until: 1.8)  // F4 on at 1.5; the loop's end at 1.75 releases it and starts over
        player.played(until: 1.6)
        let offs = player.stop(at: 1.7).map(\.message)
        #expect(offs.contains(.noteOff(channel: 0, note: 65, velocity: 0)))
    }
}

extension SongPlayerTests {
    @Test func theTimelineMarksStartTempoChangesLoopsAndStops() throws {
        let song = Song(file: try SequenceText.parse("""
            ppq 480
            tempo 120
            time 4/4
            tempo 60 at 2:1
            time 3/4 at 3:1
            track "Piano" channel 1
              1:1 C4 1/4
              3:1 C4 1/4
              4:1 C4 1/4
            """), name: "timing.song")
        var player = SongPlayer()
        _ = player.load(song, at: 0)
        _ = player.play(at: 1)
        var horizon = 1.0
        while player.state == .playing { horizon += 0.25; _ = player.due(until: TransportTime(seconds: horizon)) }
        let points = player.takeTimeline()
        #expect(points.map(\.time) == [1, 3, 7, 11])  // start, 60 BPM at 2:1, 3/4 at 3:1, the end (4:2)
        #expect(points.map(\.host.tempo) == [120, 60, 60, 120])  // the end goes back to the start
        #expect(points.map(\.host.bar) == [1, 2, 3, 1])
        #expect(points[2].host.timeSignatureNumerator == 3)
        #expect(points.map(\.host.transport) == [.playing, .playing, .playing, .stopped])
        #expect(player.takeTimeline().isEmpty)
        _ = player.play(at: 20)
        player.overrideTempo(90, at: 20.5)
        _ = player.pause(at: 21)
        let later = player.takeTimeline()
        #expect(later.map(\.host.tempo) == [120, 90, 90])
        #expect(later.map(\.host.transport) == [.playing, .playing, .stopped])
    }
}

extension SongPlayerTests {
    /// What the fuzzer found: a file that starts C4 twice without a note-off between (its
    /// last note-off cut away with its end) gets two note-offs at its end, not one.
    @Test func aKeyStartedTwiceIsEndedTwice() throws {
        let song = Song(file: try SequenceText.parse("""
            ppq 480
            track "Piano" channel 1
              1:1 raw 90 3c 5a
              1:3 raw 90 3c 46
              2:1 raw 90 40 5a
              2:2 raw 80 40 00
            """), name: "twice.song")
        var player = SongPlayer()
        _ = player.load(song, at: 0)
        var handed = player.play(at: 0) ?? []
        while player.state == .playing { handed += player.due(until: (handed.last?.time ?? 0) + 1) }
        let offs = handed.filter { $0.message == .noteOff(channel: 0, note: 60, velocity: 0) }
        #expect(offs.count == 2)
    }
}

extension SongPlayerTests {
    /// A hostile file's tempo (a microsecond per quarter) cannot make one turn hand out
    /// millions of clock pulses.
    @Test func anAbsurdTempoHandsOutABoundedClock() throws {
        let song = Song(file: try SequenceText.parse("""
            ppq 480
            tempo 1us
            track "Piano" channel 1
              100000:1 C4 1/4 vel 100
            """), name: "fast.song")
        var player = SongPlayer()
        _ = player.load(song, at: 0)
        _ = player.play(at: 0)
        let handed = player.due(until: 1)
        #expect(handed.filter { $0.message == .clock }.count <= SongPlayer.maxPulses)
        #expect(handed.contains { $0.message == .noteOn(channel: 0, note: 60, velocity: 100) })
        #expect(player.state == .stopped)  // the whole song lasts 0.4 s
    }
}

extension SongPlayerTests {
    /// A master at 100 BPM (the song says 120) started 15 ms before the player could: a
    /// second after the start every note lands within a millisecond of the master's beat.
    @Test func followingAMasterLocksTheNotesToItsBeats() throws {
        var player = SongPlayer()
        _ = player.load(try Self.song(), at: 0)
        let masterStart = 10.0, ticksPerSecond = 100.0 / 60 * 480
        func masterTick(_ time: Double) -> Double { (time - masterStart) * ticksPerSecond }
        _ = player.play(at: TransportTime(seconds: masterStart + 0.015))
        var events: [SongPlayer.Scheduled] = []
        var now = masterStart + 0.015
        while player.state == .playing && now < 30 {
            player.follow(masterTick: masterTick(now), at: TransportTime(seconds: now), beatsPerMinute: 100)
            events += player.due(until: TransportTime(seconds: now + 0.1))
            now += 0.01
        }
        let notes = Self.notesOn(events)
        #expect(notes.count == 13)
        for (index, note) in notes.enumerated() where note.time > masterStart + 1 {
            let beat = masterStart + Double(index) * 0.6
            #expect(abs(note.time - beat) < 0.001, "note \(index) at \(note.time), the master's beat at \(beat)")
        }
        #expect(abs(player.tempo(atTick: 0) - 100) < 0.5, "the tempo settles on the master's")
        #expect(player.follow(masterTick: 0, at: TransportTime(seconds: now), beatsPerMinute: 100) == nil, "nothing to steer once stopped")
    }
}

/// The playlist's order and its repeat modes, on three one-note songs.
@Suite struct PlaylistTests {
    static func songs() throws -> [Song] {
        try ["a", "b", "c"].map { Song(file: try SequenceText.parse("track \"T\"\n  1:1 C4 1/4"), name: "\($0).song") }
    }

    @Test func nextAndPreviousWalkTheSongsAndStopAtTheEndsWithoutRepeat() throws {
        var playlist = Playlist()
        #expect(playlist.replace(with: try Self.songs())?.name == "a.song")
        #expect(playlist.previous()?.name == "a.song", "before the first: the first again")
        #expect(playlist.next()?.name == "b.song")
        #expect(playlist.afterEnd()?.name == "c.song")
        #expect(!playlist.hasNext)
        #expect(playlist.afterEnd() == nil && playlist.next() == nil, "the last song ends the list")
        #expect(playlist.index == 2)
        #expect(playlist.previous()?.name == "b.song")
    }

    @Test func repeatOneReplaysTheSongAndRepeatAllWraps() throws {
        var playlist = Playlist()
        _ = playlist.replace(with: try Self.songs())
        playlist.repeatMode = .one
        #expect(playlist.afterEnd()?.name == "a.song")
        #expect(playlist.next()?.name == "b.song", "next still moves on with repeat one")
        playlist.repeatMode = .all
        _ = playlist.next()
        #expect(playlist.hasNext)
        #expect(playlist.afterEnd()?.name == "a.song")
        #expect(playlist.previous()?.name == "c.song")
        #expect(playlist.replace(with: []) == nil && playlist.next() == nil && playlist.previous() == nil)
    }
}
