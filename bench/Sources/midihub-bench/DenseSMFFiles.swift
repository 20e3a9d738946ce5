import Foundation
import MIDICore

/// Large, dense multi-track SMF files generated deterministically: many notes with
/// running status, controller sweeps, pitch bend and a little meta and SysEx, like
/// a busy orchestral or MIDI-guitar sequence.
enum DenseSMFFiles {
    /// Writes `count` files into `folder` (replacing earlier ones) and returns their URLs.
    static func write(count: Int, into folder: URL) throws -> [URL] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let url = folder.appendingPathComponent("dense-\(index).mid")
            try Data(file(seed: UInt64(index) + 1).smfBytes()).write(to: url)
            return url
        }
    }

    static func file(seed: UInt64) -> MIDIFile {
        var random = SplitMix64(state: seed)
        let conductor = MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.trackName("Conductor"))),
            TrackEvent(tick: 0, .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerClick: 24, thirtySecondsPerQuarter: 8))),
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000))),
            TrackEvent(tick: Tick(96_000), .meta(.tempo(microsecondsPerQuarter: 400_000))),
        ])
        let parts = (0..<16).map { channel in part(channel: UInt8(channel), using: &random) }
        return MIDIFile(format: 1, division: .ticksPerQuarter(480), tracks: [conductor] + parts)
    }

    private static func part(channel: UInt8, using random: inout SplitMix64) -> MIDITrack {
        var events: [TrackEvent] = [
            TrackEvent(tick: 0, .meta(.trackName("Part \(channel + 1)"))),
            TrackEvent(tick: 0, .midi(.programChange(channel: channel, program: channel * 5))),
            TrackEvent(tick: 0, .sysEx([0x7E, 0x7F, 0x09, 0x01, 0xF7])),
        ]
        var tick: UInt64 = 0
        for step in 0..<4000 {
            let note = UInt8(36 + random.next() % 60)
            events.append(TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: channel, note: note, velocity: UInt8(40 + random.next() % 80)))))
            events.append(TrackEvent(tick: Tick(tick), .midi(.controlChange(channel: channel, controller: 1, value: UInt8(step % 128)))))
            events.append(TrackEvent(tick: Tick(tick + 30), .midi(.pitchBend(channel: channel, value: UInt16(random.next() % 16384)))))
            events.append(TrackEvent(tick: Tick(tick + 60), .midi(.noteOn(channel: channel, note: note, velocity: 0))))
            tick += 60 + random.next() % 60
        }
        return MIDITrack(events: events, endTick: Tick(tick))
    }
}

/// A small deterministic random generator (SplitMix64).
struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
