import TestSupport
import MIDICore

/// Random but canonical `MIDIFile`s (every field in range, text valid UTF-8, no
/// system messages as `.midi`), so writing and reading them back must give the same
/// value. They cover every channel message, SysEx form and meta event kind.
enum GeneratedFiles {
    static func file(seed: UInt64, format: UInt16 = 1, tracks trackCount: Int = 3, eventsPerTrack: Int = 200) -> MIDIFile {
        var random = SeededGenerator(seed: seed)
        let division: MIDIFile.Division = seed % 5 == 4
            ? .smpte(framesPerSecond: [24, 25, 29, 30][Int(seed / 5 % 4)], ticksPerFrame: 40)
            : .ticksPerQuarter(UInt16.random(in: 24...960, using: &random))
        let tracks = (0..<(format == 0 ? 1 : trackCount)).map { _ in
            track(eventCount: eventsPerTrack, using: &random)
        }
        return MIDIFile(format: format, division: division, tracks: tracks)
    }

    static func track(eventCount: Int, using random: inout SeededGenerator) -> MIDITrack {
        var tick: UInt64 = 0
        var events: [TrackEvent] = []
        for _ in 0..<eventCount {
            // Mostly small deltas, sometimes zero, sometimes a multi-byte quantity.
            switch Int.random(in: 0..<10, using: &random) {
            case 0...2: break
            case 3...8: tick += UInt64.random(in: 1...500, using: &random)
            default: tick += UInt64.random(in: 1...0x0FFF_FFFF, using: &random) % 100_000
            }
            let kind: TrackEvent.Kind = Int.random(in: 0..<10, using: &random) < 8
                ? .midi(channelMessage(using: &random))
                : otherKind(using: &random)
            events.append(TrackEvent(tick: Tick(tick), kind))
        }
        return MIDITrack(events: events, endTick: Tick(tick + UInt64.random(in: 0...1000, using: &random)))
    }

    static func channelMessage(using random: inout SeededGenerator) -> MIDIMessage {
        let channel = UInt8.random(in: 0...15, using: &random)
        let a = UInt8.random(in: 0...127, using: &random)
        let b = UInt8.random(in: 0...127, using: &random)
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return .noteOff(channel: channel, note: a, velocity: b)
        case 1: return .noteOn(channel: channel, note: a, velocity: b % 3 == 0 ? 0 : b)
        case 2: return .polyPressure(channel: channel, note: a, pressure: b)
        case 3: return .controlChange(channel: channel, controller: a, value: b)
        case 4: return .programChange(channel: channel, program: a)
        case 5: return .channelPressure(channel: channel, pressure: a)
        default: return .pitchBend(channel: channel, value: UInt16.random(in: 0...16383, using: &random))
        }
    }

    static let texts = ["Piano", "Bass line", "Verse 2", "\"quoted\" \\ back", "Café ünïcode", "naïve — dash", ""]

    static func otherKind(using random: inout SeededGenerator) -> TrackEvent.Kind {
        let text = texts[Int.random(in: 0..<texts.count, using: &random)]
        let byte = UInt8.random(in: 0...127, using: &random)
        let data = (0..<Int.random(in: 0...20, using: &random)).map { _ in UInt8.random(in: 0...127, using: &random) }
        let metas: [MetaEvent] = [
            .sequenceNumber(UInt16.random(in: 0...UInt16.max, using: &random)),
            .text(text), .copyright(text), .trackName(text), .instrumentName(text), .lyric(text),
            .marker(text), .cuePoint(text), .programName(text), .deviceName(text),
            .channelPrefix(byte & 0x0F), .port(byte),
            .tempo(microsecondsPerQuarter: UInt32.random(in: 1...0xFF_FFFF, using: &random)),
            .smpteOffset(hours: byte % 24, minutes: byte % 60, seconds: byte % 60, frames: byte % 30, subframes: byte % 100),
            .timeSignature(numerator: byte % 12 + 1, denominatorPower: byte % 5, clocksPerClick: 24, thirtySecondsPerQuarter: 8),
            .keySignature(sharps: Int8(byte % 15) - 7, minor: byte % 2 == 0),
            .sequencerSpecific(data),
            .unknown(type: 0x60 + byte % 16, data: data),
        ]
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return .sysEx(data + [0xF7])
        case 1: return .sysExEscape(data)
        default: return .meta(metas[Int.random(in: 0..<metas.count, using: &random)])
        }
    }
}
