/// A Standard MIDI File in memory: header fields plus tracks of timed events.
///
/// Event ticks are absolute (from the start of the track), not deltas; the reader
/// and writer convert. End-of-track is implicit: the writer appends it, the reader
/// consumes it (its tick is kept as `MIDITrack.endTick`).
///
/// - Thread: any (plain values).
public struct MIDIFile: Hashable, Sendable {
    /// 0 (one track), 1 (simultaneous tracks), 2 (independent sequences).
    public var format: UInt16
    public var division: Division
    public var tracks: [MIDITrack]

    public init(format: UInt16 = 1, division: Division = .ticksPerQuarter(480), tracks: [MIDITrack] = []) {
        self.format = format
        self.division = division
        self.tracks = tracks
    }

    /// The header's time division.
    public enum Division: Hashable, Sendable {
        /// Metrical time: ticks per quarter note (1…32767).
        case ticksPerQuarter(UInt16)
        /// Timecode: frames per second (24, 25, 29 for 29.97 drop-frame, 30) and ticks per frame.
        case smpte(framesPerSecond: UInt8, ticksPerFrame: UInt8)
    }
}

/// One track chunk (`MTrk`).
public struct MIDITrack: Hashable, Sendable {
    /// Events in file order; ticks never decrease.
    public var events: [TrackEvent]
    /// Tick of the End of Track meta event (≥ the last event's tick).
    public var endTick: Tick

    public init(events: [TrackEvent] = [], endTick: Tick? = nil) {
        self.events = events
        self.endTick = endTick ?? events.last?.tick ?? 0
    }

    /// The first Sequence/Track Name meta event's text, if any.
    public var name: String? {
        for event in events {
            if case .meta(.trackName(let n)) = event.kind { return n }
        }
        return nil
    }
}

/// A timed event inside a track: absolute tick (a whole tick, where the file puts it) plus
/// what happens.
public struct TrackEvent: Hashable, Sendable {
    public var tick: Tick
    public var kind: Kind

    public init(tick: Tick, _ kind: Kind) {
        self.tick = tick
        self.kind = kind
    }

    public enum Kind: Hashable, Sendable {
        /// A channel message (SMF tracks hold only channel voice messages here).
        case midi(MIDIMessage)
        /// `F0 len data`: a complete or first-packet SysEx; `data` excludes the F0 and
        /// includes the trailing F7 when the file has it.
        case sysEx([UInt8])
        /// `F7 len data`: an escape/continuation packet, bytes as stored.
        case sysExEscape([UInt8])
        case meta(MetaEvent)
    }
}

/// Meta events (`FF type len data`). End of Track is not listed: it is `MIDITrack.endTick`.
public enum MetaEvent: Hashable, Sendable {
    case sequenceNumber(UInt16)
    case text(String)
    case copyright(String)
    case trackName(String)
    case instrumentName(String)
    case lyric(String)
    case marker(String)
    case cuePoint(String)
    case programName(String)
    case deviceName(String)
    case channelPrefix(UInt8)
    case port(UInt8)
    /// Microseconds per quarter note (1…16777215).
    case tempo(microsecondsPerQuarter: UInt32)
    case smpteOffset(hours: UInt8, minutes: UInt8, seconds: UInt8, frames: UInt8, subframes: UInt8)
    /// `denominatorPower`: 2 = quarter, 3 = eighth…; clocksPerClick and thirtySecondsPerQuarter as stored.
    case timeSignature(numerator: UInt8, denominatorPower: UInt8, clocksPerClick: UInt8, thirtySecondsPerQuarter: UInt8)
    /// `sharps`: -7…7 (negative = flats); `minor`: false = major.
    case keySignature(sharps: Int8, minor: Bool)
    case sequencerSpecific([UInt8])
    /// Any other type byte, kept verbatim so files round-trip.
    case unknown(type: UInt8, data: [UInt8])
}
