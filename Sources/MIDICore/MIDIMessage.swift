/// One MIDI 1.0 message: channel voice, system common, system realtime or SysEx.
///
/// Channels are 0-based (0…15); data bytes are 7-bit (0…127). Pitch bend and song
/// position are 14-bit (0…16383; pitch bend centre is 8192).
/// `sysEx` carries the payload *between* F0 and F7 (neither byte included).
///
/// - Thread: any (a plain value).
public enum MIDIMessage: Hashable, Sendable {
    // Channel voice
    case noteOff(channel: UInt8, note: UInt8, velocity: UInt8)
    case noteOn(channel: UInt8, note: UInt8, velocity: UInt8)
    case polyPressure(channel: UInt8, note: UInt8, pressure: UInt8)
    case controlChange(channel: UInt8, controller: UInt8, value: UInt8)
    case programChange(channel: UInt8, program: UInt8)
    case channelPressure(channel: UInt8, pressure: UInt8)
    case pitchBend(channel: UInt8, value: UInt16)
    // System exclusive
    case sysEx([UInt8])
    // System common
    case mtcQuarterFrame(UInt8)
    case songPosition(UInt16)
    case songSelect(UInt8)
    case tuneRequest
    // System realtime
    case clock
    case start
    case `continue`
    case stop
    case activeSensing
    case reset
}

extension MIDIMessage {
    /// The channel (0…15) of a channel voice message, `nil` for system messages.
    public var channel: UInt8? {
        switch self {
        case .noteOff(let c, _, _), .noteOn(let c, _, _), .polyPressure(let c, _, _),
             .controlChange(let c, _, _), .programChange(let c, _), .channelPressure(let c, _),
             .pitchBend(let c, _):
            return c
        default:
            return nil
        }
    }

    /// True for the one-byte system realtime messages (F8…FF).
    public var isRealtime: Bool {
        switch self {
        case .clock, .start, .continue, .stop, .activeSensing, .reset: return true
        default: return false
        }
    }
}
