import MIDICore

/// Something a `SeqClient` received: a MIDI message, a System announcement, or
/// an event type midihub does not decode.
///
/// - Thread: any (a plain value).
public enum SeqEvent: Hashable, Sendable {
    /// A MIDI message from `source`. SysEx split by the sender is delivered whole.
    case message(MIDIMessage, source: SeqAddress, time: SeqTime)
    /// A notice from the System announce port (0:1).
    case announce(SeqAnnouncement, time: SeqTime)
    /// A sequencer event without a MIDI 1.0 meaning here (`type` is `SND_SEQ_EVENT_*`).
    case unsupported(type: UInt8, source: SeqAddress, time: SeqTime)

    /// Where the event came from (0:1 for announcements).
    public var source: SeqAddress {
        switch self {
        case .message(_, let source, _), .unsupported(_, let source, _): source
        case .announce: .systemAnnounce
        }
    }

    public var time: SeqTime {
        switch self {
        case .message(_, _, let time), .announce(_, let time), .unsupported(_, _, let time): time
        }
    }
}

/// An event's timestamp: queue ticks, or a queue's real time, to the nanosecond (ports
/// created with a `timestampQueue` get the latter, stamped on arrival).
///
/// - Thread: any (a plain value).
public enum SeqTime: Hashable, Sendable {
    case tick(UInt32)
    case realTime(QueueTime)
}

/// The System client's notices about clients, ports and subscriptions.
///
/// - Thread: any (a plain value).
public enum SeqAnnouncement: Hashable, Sendable {
    case clientStart(client: UInt8)
    case clientExit(client: UInt8)
    case clientChange(client: UInt8)
    case portStart(SeqAddress)
    case portExit(SeqAddress)
    case portChange(SeqAddress)
    case subscribed(sender: SeqAddress, destination: SeqAddress)
    case unsubscribed(sender: SeqAddress, destination: SeqAddress)
}
