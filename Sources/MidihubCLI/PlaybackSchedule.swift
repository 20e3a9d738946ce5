import MIDICore

/// A file's events laid out for an ALSA queue the way `aplaymidi` does it: ticks of
/// the file's division, tempo changes as queue tempo events, each track's events
/// sent to the port its MIDI Port meta event picks (index modulo the port count,
/// 0 without one).
///
/// SMPTE files get a fixed queue tempo and resolution that make one tick one
/// subframe; their tempo meta events are ignored (as in aplaymidi). SysEx escape
/// packets (`F7 len data`) are not sent.
///
/// - Thread: any (a plain value).
struct PlaybackSchedule {
    enum Action: Hashable {
        case message(MIDIMessage)
        case tempo(microsecondsPerQuarter: UInt32)
    }

    struct Item: Hashable {
        var tick: UInt32
        var portIndex: Int
        var action: Action
    }

    /// In tick order (file order on ties).
    var items: [Item] = []
    /// The queue resolution: ticks per quarter note.
    var ticksPerQuarter: Int32
    /// The queue tempo before the first tempo event.
    var initialTempo: UInt32 = 500_000
    /// The last End of Track: playback lasts until then.
    var endTick: UInt32

    /// - Throws: `CLIError` when the file is longer than a queue can count (2³² ticks).
    init(file: MIDIFile, portCount: Int) throws {
        guard file.durationTicks.whole <= UInt64(UInt32.max) else {
            throw CLIError("the file lasts \(file.durationTicks) ticks, more than an ALSA queue counts",
                           fix: "use a coarser division or split the file", exitCode: CLIError.badInput)
        }
        endTick = UInt32(file.durationTicks.whole)
        var usesTempoEvents = true
        switch file.division {
        case .ticksPerQuarter(let ticks):
            ticksPerQuarter = Int32(max(1, ticks))
        case .smpte(let framesPerSecond, let ticksPerFrame):
            // Same constants as aplaymidi: tempo × ppq chosen so one tick is one subframe.
            let frames = Int32(ticksPerFrame)
            switch framesPerSecond {
            case 24: (initialTempo, ticksPerQuarter) = (500_000, 12 * frames)
            case 25: (initialTempo, ticksPerQuarter) = (400_000, 10 * frames)
            case 29: (initialTempo, ticksPerQuarter) = (100_000_000, 2997 * frames)
            default: (initialTempo, ticksPerQuarter) = (500_000, 15 * frames)
            }
            usesTempoEvents = false
        }
        var trackPort: [Int: Int] = [:]
        for merged in file.mergedEvents() {
            let tick = UInt32(merged.event.tick.whole)
            let portIndex = trackPort[merged.track] ?? 0
            switch merged.event.kind {
            case .midi(let message):
                items.append(Item(tick: tick, portIndex: portIndex, action: .message(message)))
            case .sysEx(let data):
                let payload = data.last == 0xF7 ? Array(data.dropLast()) : data
                items.append(Item(tick: tick, portIndex: portIndex, action: .message(.sysEx(payload))))
            case .meta(.tempo(let microseconds)) where usesTempoEvents:
                items.append(Item(tick: tick, portIndex: 0, action: .tempo(microsecondsPerQuarter: microseconds)))
            case .meta(.port(let index)):
                trackPort[merged.track] = Int(index) % max(1, portCount)
            case .sysExEscape, .meta:
                break
            }
        }
    }

    /// Notes still sounding after every item up to and including `tick`, as (port index, message).
    func soundingNotes(atTick tick: UInt32) -> [(portIndex: Int, channel: UInt8, note: UInt8)] {
        var sounding: [Int: [UInt16: Int]] = [:]  // port → (channel << 8 | note) → count
        for item in items where item.tick <= tick {
            guard case .message(let message) = item.action else { continue }
            switch message {
            case .noteOn(let channel, let note, let velocity) where velocity > 0:
                sounding[item.portIndex, default: [:]][UInt16(channel) << 8 | UInt16(note), default: 0] += 1
            case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
                let key = UInt16(channel) << 8 | UInt16(note)
                if let count = sounding[item.portIndex]?[key] {
                    sounding[item.portIndex]?[key] = count > 1 ? count - 1 : nil
                }
            default:
                break
            }
        }
        return sounding.sorted { $0.key < $1.key }.flatMap { port, notes in
            notes.keys.sorted().map { (port, UInt8($0 >> 8), UInt8($0 & 0xFF)) }
        }
    }

    /// The channels each port index receives channel messages on.
    var channelsByPort: [Int: Set<UInt8>] {
        var channels: [Int: Set<UInt8>] = [:]
        for item in items {
            if case .message(let message) = item.action, let channel = message.channel {
                channels[item.portIndex, default: []].insert(channel)
            }
        }
        return channels
    }
}
