import MIDICore

/// A take recorded onto the playing song (docs/transport.md#overdubbing): what the ports
/// play, each message at the song's tick where it was heard, kept as a new track of the
/// song's file. Channel messages and SysEx are kept, as `MIDIRecording` keeps them.
///
/// A loop makes the song's ticks go back: later passes layer onto earlier ones, and a note
/// held across the loop's end ends at the song's end. Notes still held when the take ends
/// end there too.
///
/// - Thread: owner (a plain value the daemon's owner holds).
public struct Overdub: Sendable {
    private var events: [TrackEvent] = []
    /// The tick of each held note-on, by channel × 128 + note.
    private var held: [Int: Tick] = [:]
    /// The song's end: no tick lies past it.
    public let endTick: Tick

    public init(endTick: Tick) {
        self.endTick = endTick
    }

    /// Messages kept so far.
    public var count: Int { events.count }

    /// Keeps `message`, heard at `tick` of the song; drops what a file does not keep.
    public mutating func record(_ message: MIDIMessage, atTick tick: Tick) {
        var at = min(tick.rounded, endTick)
        switch message {
        case .sysEx(let payload):
            events.append(TrackEvent(tick: at, .sysEx(payload + [0xF7])))
            return
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            held[Int(channel) * 128 + Int(note)] = at
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            // A note-off before its note-on's tick: the song looped while the key was down.
            if let start = held.removeValue(forKey: Int(channel) * 128 + Int(note)), at < start { at = endTick }
        case _ where message.channel != nil:
            break
        default:
            return
        }
        events.append(TrackEvent(tick: at, .midi(message)))
    }

    /// `song`'s file with the take as a new track named `trackName` (format 1), its held
    /// notes ended at the song's end.
    public func merged(into song: Song, trackName: String) -> MIDIFile {
        var take = events
        for (key, _) in held.sorted(by: { $0.key < $1.key }) {
            take.append(TrackEvent(tick: endTick, .midi(.noteOff(channel: UInt8(key / 128), note: UInt8(key % 128), velocity: 0))))
        }
        // Stable: equal ticks keep the order they were played in.
        let ordered = take.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
        var file = song.file
        if file.format == 0 { file.format = 1 }
        file.tracks.append(MIDITrack(events: [TrackEvent(tick: 0, .meta(.trackName(trackName)))] + ordered,
                                     endTick: max(endTick, ordered.last?.tick ?? 0)))
        return file
    }
}
