import Foundation
import MIDICore

/// General MIDI songs shaped like real ones rather than uniformly dense (the render
/// cost of sparse songs is mostly fixed costs): generated deterministically.
/// - `sparse`: four parts (piano, bass, pad, light drums) over ten minutes, a few notes a bar;
/// - `programs`: eight channels that change program every bar (a medley or a GM test file);
/// - `drums`: a busy kit on channel 10 in 16ths and 32nds, with a bass line;
/// - `game`: a game soundtrack's shape (issue 30: real ones rendered only 2.4-2.7× faster
///   than FluidSynth): four channels — muted guitar, clavinet, slap bass, drums — about 20
///   notes a second for ten minutes, no controllers.
enum ShapedGMSongs {
    enum Shape: String, CaseIterable {
        case sparse, programs, drums, game

        var seconds: Double {
            switch self {
            case .sparse, .game: 600
            case .programs, .drums: 60
            }
        }

        var summary: String {
            switch self {
            case .sparse: "long and sparse (4 parts, 10 min)"
            case .programs: "a program change every bar on 8 channels (60 s)"
            case .drums: "drum-heavy (16ths and 32nds on channel 10, 60 s)"
            case .game: "a game soundtrack (4 busy channels, 20 notes/s, 10 min)"
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
        }
        return MIDIFile(format: 1, division: .ticksPerQuarter(UInt16(ticksPerQuarter)), tracks: tracks)
    }

    /// A melodic part: `notesPerBar` notes of `length` ticks at random steps of each bar, the
    /// program cycling through `programs` bar by bar.
    private static func part(channel: UInt8, programs: [UInt8], bars: Int, notesPerBar: Int, length: UInt64,
                             octave: Int = 4, random: inout SplitMix64) -> MIDITrack {
        var events: [TrackEvent] = []
        for index in 0..<bars {
            let start = UInt64(index) * bar
            if index == 0 || programs.count > 1 {
                events.append(TrackEvent(tick: Tick(start), .midi(.programChange(channel: channel, program: programs[index % programs.count]))))
            }
            for step in 0..<notesPerBar {
                let tick = start + UInt64(step) * bar / UInt64(notesPerBar) + random.next() % 30
                let key = UInt8(12 * octave + Int(random.next() % 24))
                let velocity = UInt8(60 + random.next() % 60)
                events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: channel, note: key, velocity: velocity))))
                events.append(TrackEvent(tick: Tick(tick + length), .midi(.noteOff(channel: channel, note: key, velocity: 64))))
            }
        }
        return MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: Tick(UInt64(bars) * bar + ticksPerQuarter))
    }

    /// Channel 10: `hitsPerBar` hits spread over the bar from a GM kit's common notes.
    private static func drums(bars: Int, hitsPerBar: Int, random: inout SplitMix64) -> MIDITrack {
        let kit: [UInt8] = [36, 38, 42, 42, 46, 49, 45, 47, 50, 39, 54, 56]
        var events: [TrackEvent] = []
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
