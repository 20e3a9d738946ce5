import MIDICore

/// One command of a packet's MIDI list: a MIDI message and when it happens.
///
/// - Thread: any (a value).
public struct RTPMIDICommand: Hashable, Sendable {
    /// Timestamp units (the session's RTP clock) after the previous command; the first
    /// command's is after the packet's timestamp.
    public var delta: UInt32
    /// The message; for a SysEx segment (`sysExSegment` other than `.complete`), the
    /// segment's bytes between its framing bytes.
    public var message: MIDIMessage
    /// Which part of a SysEx `message` is: RFC 6295 §3.2 splits a long SysEx across
    /// packets. `.complete` for every other message.
    public var sysExSegment: SysExSegment

    public init(delta: UInt32 = 0, message: MIDIMessage, sysExSegment: SysExSegment = .complete) {
        self.delta = delta
        self.message = message
        self.sysExSegment = sysExSegment
    }

    /// A SysEx payload as commands of at most `maximumSegmentLength` payload bytes each
    /// (a first, middle ones and a last; one `.complete` command when it fits), for
    /// packets that stay under the path's MTU. Each segment goes in its own packet or
    /// one after another in a packet.
    ///
    /// - Thread: any.
    public static func sysExSegments(_ payload: [UInt8], maximumSegmentLength: Int, delta: UInt32 = 0) -> [RTPMIDICommand] {
        let length = max(1, maximumSegmentLength)
        guard payload.count > length else { return [RTPMIDICommand(delta: delta, message: .sysEx(payload))] }
        let starts = Array(stride(from: 0, to: payload.count, by: length))
        return starts.enumerated().map { index, start in
            let segment: SysExSegment = index == 0 ? .first : (index == starts.count - 1 ? .last : .middle)
            let bytes = Array(payload[start..<min(payload.count, start + length)])
            return RTPMIDICommand(delta: index == 0 ? delta : 0, message: .sysEx(bytes), sysExSegment: segment)
        }
    }
}

/// The part of a SysEx one command carries, by its framing bytes (RFC 6295 §3.2).
///
/// - Thread: any (a value).
public enum SysExSegment: Hashable, Sendable, CaseIterable {
    /// F0 … F7: the whole SysEx.
    case complete
    /// F0 … F0: the start of one that continues.
    case first
    /// F7 … F0: a middle part.
    case middle
    /// F7 … F7: the end.
    case last
    /// F7 … F4: the sender gave up on the SysEx under way; a receiver drops it.
    case cancel

    /// The bytes before and after the payload.
    var framing: (opening: UInt8, closing: UInt8) {
        switch self {
        case .complete: (0xF0, 0xF7)
        case .first: (0xF0, 0xF0)
        case .middle: (0xF7, 0xF0)
        case .last: (0xF7, 0xF7)
        case .cancel: (0xF7, 0xF4)
        }
    }

    /// The segment framed by `opening` and `closing`, nil for a pair RFC 6295 lacks.
    init?(opening: UInt8, closing: UInt8) {
        guard let segment = Self.allCases.first(where: { $0.framing == (opening, closing) }) else { return nil }
        self = segment
    }
}
