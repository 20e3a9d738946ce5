import Foundation
import MIDICore

/// Dense General MIDI songs generated deterministically, standing in for real
/// multi-channel GM files (none are installed on the benchmark machines): 16 channels
/// with a drum kit (kick, snare, hats, toms, crashes) on channel 10, a bass line, held
/// pad and string chords, piano and guitar comping, fast 16th-note lead runs,
/// brass stabs, pan and volume per channel, sustain pedal, pitch bend and mod wheel.
/// Note lengths and densities follow a busy pop/orchestral arrangement.
enum DenseGMSongs {
    /// Writes `count` songs of about `seconds` each into `folder` and returns their URLs.
    static func write(count: Int, seconds: Double, into folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let url = folder.appendingPathComponent("gm-song-\(index).mid")
            try Data(song(seed: UInt64(index) + 11, seconds: seconds).smfBytes()).write(to: url)
            return url
        }
    }

    static let ticksPerQuarter: UInt64 = 480
    static let sixteenth = ticksPerQuarter / 4

    /// One part of the arrangement: its channel, GM program and how it plays.
    private struct Part {
        enum Style { case bass, chords, comping, lead, stabs, arpeggio }
        var channel: UInt8
        var program: UInt8
        var style: Style
        var octave: Int
        var volume: UInt8
        var pan: UInt8
    }

    private static let parts: [Part] = [
        Part(channel: 0, program: 0, style: .comping, octave: 4, volume: 100, pan: 54),     // piano
        Part(channel: 1, program: 33, style: .bass, octave: 2, volume: 110, pan: 64),       // finger bass
        Part(channel: 2, program: 48, style: .chords, octave: 4, volume: 90, pan: 40),      // strings
        Part(channel: 3, program: 89, style: .chords, octave: 3, volume: 80, pan: 88),      // warm pad
        Part(channel: 4, program: 80, style: .lead, octave: 5, volume: 95, pan: 70),        // square lead
        Part(channel: 5, program: 25, style: .comping, octave: 3, volume: 85, pan: 30),     // steel guitar
        Part(channel: 6, program: 61, style: .stabs, octave: 4, volume: 90, pan: 76),       // brass section
        Part(channel: 7, program: 73, style: .lead, octave: 6, volume: 80, pan: 96),        // flute
        Part(channel: 8, program: 11, style: .arpeggio, octave: 5, volume: 75, pan: 20),    // vibraphone
        Part(channel: 10, program: 16, style: .chords, octave: 3, volume: 70, pan: 100),    // organ
        Part(channel: 11, program: 40, style: .lead, octave: 5, volume: 85, pan: 60),       // violin
        Part(channel: 12, program: 65, style: .stabs, octave: 4, volume: 80, pan: 84),      // alto sax
        Part(channel: 13, program: 46, style: .arpeggio, octave: 4, volume: 80, pan: 44),   // harp
        Part(channel: 14, program: 50, style: .chords, octave: 5, volume: 70, pan: 110),    // synth strings
        Part(channel: 15, program: 81, style: .arpeggio, octave: 4, volume: 70, pan: 12),   // saw lead
    ]

    /// I–vi–IV–V style progression (root offsets from C, minor flag).
    private static let progression: [(root: Int, minor: Bool)] = [(0, false), (9, true), (5, false), (7, false),
                                                                   (2, true), (7, false), (4, true), (9, true)]

    static func song(seed: UInt64, seconds: Double) -> MIDIFile {
        var random = SplitMix64(state: seed)
        let bpm = 112 + Double(random.next() % 40)
        let bars = max(1, Int(seconds * bpm / 240))
        let key = Int(random.next() % 12) - 5
        let conductor = MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.trackName("Conductor"))),
            TrackEvent(tick: 0, .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerClick: 24, thirtySecondsPerQuarter: 8))),
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: UInt32(60_000_000 / bpm)))),
        ])
        var tracks = [conductor]
        for part in parts {
            tracks.append(track(for: part, bars: bars, key: key, using: &random))
        }
        tracks.append(drums(bars: bars, using: &random))
        return MIDIFile(format: 1, division: .ticksPerQuarter(UInt16(ticksPerQuarter)), tracks: tracks)
    }

    private static func setup(channel: UInt8, program: UInt8, volume: UInt8, pan: UInt8) -> [TrackEvent] {
        [TrackEvent(tick: 0, .midi(.programChange(channel: channel, program: program))),
         TrackEvent(tick: 0, .midi(.controlChange(channel: channel, controller: 7, value: volume))),
         TrackEvent(tick: 0, .midi(.controlChange(channel: channel, controller: 10, value: pan)))]
    }

    private static func track(for part: Part, bars: Int, key: Int, using random: inout SplitMix64) -> MIDITrack {
        var events = setup(channel: part.channel, program: part.program, volume: part.volume, pan: part.pan)
        let bar = 16 * sixteenth
        func note(_ tick: UInt64, _ pitch: Int, _ length: UInt64, _ velocity: Int) {
            let key = UInt8(min(max(pitch, 0), 127))
            events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: part.channel, note: key, velocity: UInt8(min(max(velocity, 1), 127))))))
            events.append(TrackEvent(tick: Tick(tick + max(length, 10)), .midi(.noteOff(channel: part.channel, note: key, velocity: 64))))
        }
        for index in 0..<bars {
            let start = UInt64(index) * bar
            let chord = progression[index % progression.count]
            let root = 12 * part.octave + key + chord.root
            let triad = [root, root + (chord.minor ? 3 : 4), root + 7, root + 12]
            let accent = 70 + Int(random.next() % 40)
            switch part.style {
            case .bass:
                for step in stride(from: 0, to: 16, by: 2) {
                    let pitch = step % 8 == 6 ? root + 7 : root
                    note(start + UInt64(step) * sixteenth, pitch, sixteenth * 2 - 20, accent + Int(random.next() % 20))
                }
            case .chords:
                for pitch in triad { note(start, pitch, bar - 30, accent - 10) }
                events.append(TrackEvent(tick: Tick(start + bar / 2), .midi(.controlChange(channel: part.channel, controller: 1,
                                                                                      value: UInt8(random.next() % 64)))))
            case .comping:
                events.append(TrackEvent(tick: Tick(start), .midi(.controlChange(channel: part.channel, controller: 64, value: 127))))
                for beat in 0..<4 where random.next() % 4 != 0 {
                    for pitch in triad { note(start + UInt64(beat) * 4 * sixteenth + random.next() % 20, pitch, 3 * sixteenth, accent) }
                }
                events.append(TrackEvent(tick: Tick(start + bar - 10), .midi(.controlChange(channel: part.channel, controller: 64, value: 0))))
            case .lead:
                var pitch = triad[Int(random.next() % 3)] + 12
                for step in 0..<16 where random.next() % 5 != 0 {
                    pitch += Int(random.next() % 5) - 2
                    note(start + UInt64(step) * sixteenth, pitch, sixteenth - 15, accent + Int(random.next() % 25))
                }
                events.append(TrackEvent(tick: Tick(start + bar - 60), .midi(.pitchBend(channel: part.channel, value: UInt16(8192 + random.next() % 2000)))))
                events.append(TrackEvent(tick: Tick(start + bar - 5), .midi(.pitchBend(channel: part.channel, value: 8192))))
            case .stabs:
                for step in [0, 3, 6, 10, 12] where random.next() % 3 != 0 {
                    for pitch in triad.prefix(3) { note(start + UInt64(step) * sixteenth, pitch, sixteenth * 2, accent + 10) }
                }
            case .arpeggio:
                for step in 0..<16 {
                    note(start + UInt64(step) * sixteenth, triad[step % 4] + 12 * (step / 8), sixteenth * 3, accent - 5)
                }
            }
        }
        return MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: Tick(UInt64(bars) * bar + ticksPerQuarter))
    }

    /// Channel 10: kick, snare, closed/open hats in 16ths, toms in fills, crash per phrase.
    private static func drums(bars: Int, using random: inout SplitMix64) -> MIDITrack {
        var events = setup(channel: 9, program: 0, volume: 110, pan: 64)
        func hit(_ tick: UInt64, _ note: UInt8, _ velocity: Int) {
            events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: 9, note: note, velocity: UInt8(min(velocity, 127))))))
            events.append(TrackEvent(tick: Tick(tick + sixteenth / 2), .midi(.noteOff(channel: 9, note: note, velocity: 0))))
        }
        for index in 0..<bars {
            let start = UInt64(index) * 16 * sixteenth
            if index % 4 == 0 { hit(start, 49, 110) }
            for step in 0..<16 {
                let tick = start + UInt64(step) * sixteenth
                if step % 4 == 0 || (step == 10 && random.next() % 2 == 0) { hit(tick, 36, 115) }
                if step % 8 == 4 { hit(tick, 38, 105) }
                hit(tick, step % 8 == 6 ? 46 : 42, 60 + Int(random.next() % 40))
                if index % 4 == 3 && step >= 12 { hit(tick, [50, 47, 45, 43][step - 12], 100) }
                if step % 4 == 2 && random.next() % 3 == 0 { hit(tick, [39, 54, 56, 69, 70][Int(random.next() % 5)], 80) }
            }
        }
        return MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: Tick(UInt64(bars) * 16 * sixteenth + ticksPerQuarter))
    }
}
