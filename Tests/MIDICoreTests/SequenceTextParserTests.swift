import MIDICore
import Testing

/// What the parser builds from hand-written text.
@Suite struct SequenceTextParserTests {
    private func events(_ text: String, track: Int = 0) throws -> [TrackEvent] {
        try SequenceText.parse(text).tracks[track].events
    }

    private func on(_ tick: UInt64, _ note: UInt8, _ velocity: UInt8 = 100, channel: UInt8 = 0) -> TrackEvent {
        TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: channel, note: note, velocity: velocity)))
    }

    private func off(_ tick: UInt64, _ note: UInt8, _ velocity: UInt8 = 64, channel: UInt8 = 0) -> TrackEvent {
        TrackEvent(tick: Tick(tick), .midi(.noteOff(channel: channel, note: note, velocity: velocity)))
    }

    @Test func headerAndConductorSection() throws {
        let file = try SequenceText.parse("""
        # a comment
        ppq 96
        format 1
        tempo 120
        time 3/4
        key Eb major
        title "Song"   # trailing comment
        tempo 90 at 3:1
        track "Lead" channel 2
          1:1 A4 1/4
        """)
        #expect(file.division == .ticksPerQuarter(96))
        #expect(file.tracks.count == 2)
        #expect(file.tracks[0].events == [
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000))),
            TrackEvent(tick: 0, .meta(.timeSignature(numerator: 3, denominatorPower: 2, clocksPerClick: 24, thirtySecondsPerQuarter: 8))),
            TrackEvent(tick: 0, .meta(.keySignature(sharps: -3, minor: false))),
            TrackEvent(tick: 0, .meta(.trackName("Song"))),
            TrackEvent(tick: Tick(2 * 3 * 96), .meta(.tempo(microsecondsPerQuarter: 666_667))),
        ])
        #expect(file.tracks[1].events == [
            TrackEvent(tick: 0, .meta(.trackName("Lead"))),
            on(0, 69, channel: 1), off(96, 69, channel: 1),
        ])
    }

    @Test func positionsFollowTimeSignatureChanges() throws {
        // 4/4 for bar 1, 6/8 from bar 2 (beat = eighth = 48 ticks at ppq 96), 3/4 cut in mid-bar 3.
        let text = """
        ppq 96
        time 6/8 at 2:1
        time 3/4 at 3:4
        track
          1:4     C4 1/8
          2:2     C4 1/8
          2:2.5   C4 1/16
          3:1:12  C4 12t
          4:1     C4 1/4
          @1000   C4 2b
        """
        let starts = try events(text, track: 1).compactMap { event -> Tick? in
            if case .midi(.noteOn) = event.kind { return event.tick }
            return nil
        }
        let bar2 = UInt64(4 * 96)
        let bar3 = bar2 + 6 * 48
        let bar4 = bar3 + 3 * 48   // 3/4 starts at bar 3 beat 4: bar 3 is cut short
        #expect(starts == [3 * 96, bar2 + 48, bar2 + 72, bar3 + 12, bar4, 1000].map { Tick($0) })
        let lastNote = try events(text, track: 1).last!
        #expect(lastNote == off(1000 + 2 * 96, 60))   // 2 beats of 3/4 = 2 quarters
    }

    @Test func lengthsVelocitiesReleasesAndDefaults() throws {
        let text = """
        ppq 480
        track
          1:1 C4 1/4.            # dotted quarter
          1:1 D4 1/8.. vel 30    # double-dotted eighth
          1:1 E4 1.5b rel 0
          1:1 F4 100t rel on
        default vel 90 rel 12 len 1/16
          2:1 G4
        """
        let events = try events(text)
        #expect(events.contains(off(720, 60)))
        #expect(events.contains(on(0, 62, 30)))
        #expect(events.contains(off(420, 62)))
        #expect(events.contains(off(720, 64, 0)))
        #expect(events.contains(TrackEvent(tick: 100, .midi(.noteOn(channel: 0, note: 65, velocity: 0)))))
        #expect(events.contains(on(1920, 67, 90)))
        #expect(events.contains(off(2040, 67, 12)))
    }

    @Test func chordsDrumsAndNoteNames() throws {
        let events = try events("""
        track channel 10
          1:1 kick+hh-closed 1/16
          1:2 C-1+G9+Bb3+c#4 1/16 ch 1
        """)
        let notes = events.compactMap { event -> UInt8? in
            if case .midi(.noteOn(_, let note, _)) = event.kind { return note }
            return nil
        }
        #expect(notes == [36, 42, 0, 127, 58, 61])
    }

    @Test func channelMessagesSysExAndMeta() throws {
        let events = try events("""
        track "T" channel 3 program 33
          1:1 cc volume = 100
          1:1 cc 74 12 ch 4
          1:1 bend -8192
          1:1 bend +8191
          1:1 pressure 50
          1:1 pressure C4 = 60
          1:1 program 128
          1:1 sysex f0 7e 7f 09 01 f7
          1:1 escape f7
          1:1 raw f8
          1:1 marker "Verse \\"1\\""
          1:1 lyric "la\\u{e9}"
          1:1 meta 0x60 01 02
          1:1 meta 0x51 07 a1 20
          2:1 end
        """)
        #expect(events == [
            TrackEvent(tick: 0, .meta(.trackName("T"))),
            TrackEvent(tick: 0, .midi(.programChange(channel: 2, program: 32))),
            TrackEvent(tick: 0, .midi(.controlChange(channel: 2, controller: 7, value: 100))),
            TrackEvent(tick: 0, .midi(.controlChange(channel: 3, controller: 74, value: 12))),
            TrackEvent(tick: 0, .midi(.pitchBend(channel: 2, value: 0))),
            TrackEvent(tick: 0, .midi(.pitchBend(channel: 2, value: 16383))),
            TrackEvent(tick: 0, .midi(.channelPressure(channel: 2, pressure: 50))),
            TrackEvent(tick: 0, .midi(.polyPressure(channel: 2, note: 60, pressure: 60))),
            TrackEvent(tick: 0, .midi(.programChange(channel: 2, program: 127))),
            TrackEvent(tick: 0, .sysEx([0x7E, 0x7F, 0x09, 0x01, 0xF7])),
            TrackEvent(tick: 0, .sysExEscape([0xF7])),
            TrackEvent(tick: 0, .midi(.clock)),
            TrackEvent(tick: 0, .meta(.marker("Verse \"1\""))),
            TrackEvent(tick: 0, .meta(.lyric("laé"))),
            TrackEvent(tick: 0, .meta(.unknown(type: 0x60, data: [1, 2]))),
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000))),
        ])
        #expect(try SequenceText.parse("track\n 1:1 C4 1/4\n 2:1 end").tracks[0].endTick == 1920)
    }

    @Test func releasesComeBeforeNewNotesAtTheSameTick() throws {
        let events = try events("""
        ppq 4
        track
          @4 D4 4t
          @0 C4 4t
          @4 E4 0t
        """)
        // C4's release at 4 comes before everything written at tick 4; E4 (length 0) releases right after its Note On.
        #expect(events == [on(0, 60), off(4, 60), on(4, 62), on(4, 64), off(4, 64), off(8, 62)])
    }

    @Test func textToFileToTextIsStable() throws {
        let text = """
        ppq 480
        tempo 132.5
        time 6/8
        track "Pad" channel 1
          1:1 C4+E4+G4 3/8 vel 70
          1:4 D4+F4+A4 3/8 vel 70
          2:1 cc sustain = 127
          2:1.5 bend +100
        """
        let once = SequenceText.render(try SequenceText.parse(text))
        let file = try SequenceText.parse(once)
        #expect(SequenceText.render(file) == once)
        #expect(file == (try SequenceText.parse(text)))
    }
}
