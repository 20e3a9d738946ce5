import Foundation
import MIDICore

/// General MIDI songs shaped like real ones rather than uniformly dense (the render
/// cost of sparse songs is mostly fixed costs): generated deterministically.
/// - `sparse`: four parts (piano, bass, pad, light drums) over ten minutes, a few notes a bar;
/// - `programs`: eight channels that change program every bar (a medley or a GM test file);
/// - `drums`: a busy kit on channel 10 in 16ths and 32nds, with a bass line;
/// - `game`: a game soundtrack's shape (issue 30: real ones rendered only 2.4-2.7× faster
///   than FluidSynth): four channels — muted guitar, clavinet, slap bass, drums — about 20
///   notes a second for ten minutes, no controllers;
/// - `leads`: the shape of the real game songs that stayed below 3× when `game` passed
///   (Freedoom's d_e4m5 and d_e2m4): synth leads and layers — square leads, synth strings,
///   overdriven guitar chords, a crystal arpeggio, synth bass, a kit — about 50 notes a
///   second holding about 190 voices, most of them on short loops (single-cycle waves), with
///   pitch bends and the mod wheel moving, for three minutes.
enum ShapedGMSongs {
    enum Shape: String, CaseIterable {
        case sparse, programs, drums, game, leads

        var seconds: Double {
            switch self {
            case .sparse, .game: 600
            case .programs, .drums: 60
            case .leads: 180
            }
        }

        var summary: String {
            switch self {
            case .sparse: "long and sparse (4 parts, 10 min)"
            case .programs: "a program change every bar on 8 channels (60 s)"
            case .drums: "drum-heavy (16ths and 32nds on channel 10, 60 s)"
            case .game: "a game soundtrack (4 busy channels, 20 notes/s, 10 min)"
            case .leads: "synth leads and layers (7 parts, 50 notes/s, 190 voices, bends, 3 min)"
            }
        }
    }

    static let ticksPerQuarter: UInt64 = 480
    private static let bar = 4 * ticksPerQuarter

    /// Writes the song of `shape` into `folder` and returns its URL.
    static func write(_ shape: Shape, into folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("shape-\(shape.rawValue).mid")
        try Data(song(shape).smfBytes()).write(to: url)
        return url
    }

    static func song(_ shape: Shape) -> MIDIFile {
        var random = SplitMix64(state: 29 + UInt64(shape.rawValue.count))
        let bpm = 100.0
        let bars = Int(shape.seconds * bpm / 240)
        var tracks = [MIDITrack(events: [TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: UInt32(60_000_000 / bpm))))])]
        switch shape {
        case .sparse:
            tracks.append(part(channel: 0, programs: [0], bars: bars, notesPerBar: 3, length: bar / 2, random: &random))
            tracks.append(part(channel: 1, programs: [32], bars: bars, notesPerBar: 2, length: bar / 4, octave: 2, random: &random))
            tracks.append(part(channel: 2, programs: [89], bars: bars, notesPerBar: 1, length: bar * 2, random: &random))
            tracks.append(drums(bars: bars, hitsPerBar: 4, random: &random))
        case .programs:
            for channel in 0..<8 {
                let programs = (0..<16).map { _ in UInt8(random.next() % 128) }
                tracks.append(part(channel: UInt8(channel), programs: programs, bars: bars, notesPerBar: 4, length: bar / 4,
                                   random: &random))
            }
        case .drums:
            tracks.append(part(channel: 1, programs: [33], bars: bars, notesPerBar: 8, length: bar / 8, octave: 2, random: &random))
            tracks.append(drums(bars: bars, hitsPerBar: 48, random: &random))
        case .game:  // 48 notes a bar of 2.4 s: 20 a second
            tracks.append(part(channel: 0, programs: [28], bars: bars, notesPerBar: 16, length: bar / 32, random: &random))
            tracks.append(part(channel: 1, programs: [7], bars: bars, notesPerBar: 8, length: bar / 16, random: &random))
            tracks.append(part(channel: 2, programs: [36], bars: bars, notesPerBar: 8, length: bar / 16, octave: 2, random: &random))
            tracks.append(drums(bars: bars, hitsPerBar: 16, random: &random))
        case .leads:  // 120 notes a bar of 2.4 s: 50 a second
            for channel: UInt8 in [0, 1] {  // square leads in 16ths, legato, bent and modulated
                tracks.append(part(channel: channel, programs: [80], bars: bars, notesPerBar: 16, length: bar / 12,
                                   octave: 5, random: &random))
                tracks.append(wheels(channel: channel, bars: bars, random: &random))
            }
            tracks.append(part(channel: 2, programs: [38], bars: bars, notesPerBar: 8, length: bar / 8, octave: 2, random: &random))
            tracks.append(part(channel: 3, programs: [50], bars: bars, notesPerBar: 2, length: bar / 2, chord: 4, random: &random))
            tracks.append(part(channel: 4, programs: [29], bars: bars, notesPerBar: 8, length: bar / 8, octave: 3, chord: 3,
                               random: &random))
            tracks.append(wheels(channel: 4, bars: bars, random: &random))
            tracks.append(part(channel: 6, programs: [98], bars: bars, notesPerBar: 16, length: bar / 16, octave: 5,
                               random: &random))
            tracks.append(drums(bars: bars, hitsPerBar: 24, random: &random, kit: 16))
        }
        return MIDIFile(format: 1, division: .ticksPerQuarter(UInt16(ticksPerQuarter)), tracks: tracks)
    }

    /// A melodic part: `notesPerBar` notes (or chords of `chord` notes a fifth or a third
    /// apart) of `length` ticks at random steps of each bar, the program cycling through
    /// `programs` bar by bar.
    private static func part(channel: UInt8, programs: [UInt8], bars: Int, notesPerBar: Int, length: UInt64,
                             octave: Int = 4, chord: Int = 1, random: inout SplitMix64) -> MIDITrack {
        var events: [TrackEvent] = []
        for index in 0..<bars {
            let start = UInt64(index) * bar
            if index == 0 || programs.count > 1 {
                events.append(TrackEvent(tick: Tick(start), .midi(.programChange(channel: channel, program: programs[index % programs.count]))))
            }
            for step in 0..<notesPerBar {
                let tick = start + UInt64(step) * bar / UInt64(notesPerBar) + random.next() % 30
                let root = 12 * octave + Int(random.next() % 24)
                let velocity = UInt8(60 + random.next() % 60)
                for key in (0..<chord).map({ UInt8(root + [0, 7, 12, 16][$0]) }) {
                    events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: channel, note: key, velocity: velocity))))
                    events.append(TrackEvent(tick: Tick(tick + length), .midi(.noteOff(channel: channel, note: key, velocity: 64))))
                }
            }
        }
        return MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: Tick(UInt64(bars) * bar + ticksPerQuarter))
    }

    /// A channel's pitch wheel bent up and back each bar and its mod wheel rising over every
    /// four bars, as lead lines move them.
    private static func wheels(channel: UInt8, bars: Int, random: inout SplitMix64) -> MIDITrack {
        var events: [TrackEvent] = []
        for index in 0..<bars {
            let start = UInt64(index) * bar
            for step in 0..<8 {  // a bend up over half a beat and back
                let value = UInt16(8192 + [0, 600, 1200, 1800, 2400, 1600, 800, 0][step] + Int(random.next() % 64))
                events.append(TrackEvent(tick: Tick(start + bar / 2 + UInt64(step) * 30), .midi(.pitchBend(channel: channel, value: value))))
            }
            let wheel = UInt8(index % 4 * 32 + Int(random.next() % 16))
            events.append(TrackEvent(tick: Tick(start), .midi(.controlChange(channel: channel, controller: 1, value: wheel))))
        }
        return MIDITrack(events: events, endTick: Tick(UInt64(bars) * bar + ticksPerQuarter))
    }

    /// Channel 10: `hitsPerBar` hits spread over the bar from a GM kit's common notes, on
    /// kit `kit` (a program change at the start when not the standard kit).
    private static func drums(bars: Int, hitsPerBar: Int, random: inout SplitMix64, kit program: UInt8 = 0) -> MIDITrack {
        let kit: [UInt8] = [36, 38, 42, 42, 46, 49, 45, 47, 50, 39, 54, 56]
        var events: [TrackEvent] = program == 0 ? [] : [TrackEvent(tick: 0, .midi(.programChange(channel: 9, program: program)))]
        for index in 0..<bars {
            for step in 0..<hitsPerBar {
                let tick = UInt64(index) * bar + UInt64(step) * bar / UInt64(hitsPerBar)
                let note = kit[Int(random.next() % UInt64(kit.count))]
                events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: 9, note: note, velocity: UInt8(70 + random.next() % 57)))))
                events.append(TrackEvent(tick: Tick(tick + 60), .midi(.noteOff(channel: 9, note: note, velocity: 0))))
            }
        }
        return MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: Tick(UInt64(bars) * bar + ticksPerQuarter))
    }
}
