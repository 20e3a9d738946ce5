/// Turns a MIDI 1.0 byte stream into messages, one byte at a time.
///
/// - Running status: data bytes after a complete channel message reuse its status.
/// - System realtime bytes (F8, FA…FC, FE, FF) are emitted at once wherever they
///   appear, also between the data bytes of a message or inside a SysEx, and do not
///   disturb the message being assembled.
/// - A SysEx may be split across any number of `feed` calls; it is emitted when F7
///   arrives.
/// - Bad input never traps. Data bytes with no status to belong to, a stray F7 and
///   the undefined status bytes F4, F5, F9, FD are skipped and counted in
///   `skippedBytes`. A message cut short by a status byte (including a SysEx ended by
///   any status other than F7, or one longer than `maxSysExLength`) is dropped and
///   counted in `truncatedMessages`.
///
/// Feeding a stream byte by byte gives exactly the same messages and counts as
/// feeding it whole.
///
/// - Thread: any (a value; one instance per stream, not shared between threads).
public struct MIDIParser: Sendable {
    /// Bytes ignored because they could not belong to any message.
    public private(set) var skippedBytes = 0
    /// Messages dropped because a status byte arrived before they were complete.
    public private(set) var truncatedMessages = 0
    /// The longest SysEx payload kept; a longer one is dropped and counted truncated.
    public let maxSysExLength: Int

    /// The status of the message being assembled: a channel status (also kept as
    /// running status), F1…F3 while a system common message waits for data, F0 inside
    /// a SysEx, or 0 when there is none.
    private var status: UInt8 = 0
    /// True from a status byte until its message completes (running status then
    /// continues without it); a status byte arriving meanwhile truncates the message.
    private var messageStarted = false
    private var firstDataByte: UInt8 = 0
    private var hasFirstDataByte = false
    private var sysExPayload: [UInt8] = []
    private var sysExOverflowed = false

    /// - Parameter maxSysExLength: bound on the memory one SysEx may take (default 1 MiB).
    /// - Thread: any.
    public init(maxSysExLength: Int = 1 << 20) {
        self.maxSysExLength = maxSysExLength
    }

    /// Consumes `bytes`, calling `emit` for every message completed by them, in order.
    ///
    /// - Thread: the caller's (the parser is a value owned by one reader).
    public mutating func feed<S: Sequence>(_ bytes: S, emit: (MIDIMessage) -> Void) where S.Element == UInt8 {
        for byte in bytes {
            if byte >= 0xF8 {
                consumeRealtime(byte, emit: emit)
            } else if byte >= 0x80 {
                consumeStatus(byte, emit: emit)
            } else {
                consumeData(byte, emit: emit)
            }
        }
    }

    /// Consumes `bytes` and returns the messages they completed.
    ///
    /// - Thread: the caller's.
    public mutating func parse<S: Sequence>(_ bytes: S) -> [MIDIMessage] where S.Element == UInt8 {
        var messages: [MIDIMessage] = []
        feed(bytes) { messages.append($0) }
        return messages
    }

    private mutating func consumeRealtime(_ byte: UInt8, emit: (MIDIMessage) -> Void) {
        switch byte {
        case 0xF8: emit(.clock)
        case 0xFA: emit(.start)
        case 0xFB: emit(.continue)
        case 0xFC: emit(.stop)
        case 0xFE: emit(.activeSensing)
        case 0xFF: emit(.reset)
        default: skippedBytes += 1  // F9, FD: undefined
        }
    }

    private mutating func consumeStatus(_ byte: UInt8, emit: (MIDIMessage) -> Void) {
        if status == 0xF0 {
            if byte == 0xF7 {
                finishSysEx(emit: emit)
                return
            }
            truncatedMessages += 1
        } else if messageStarted || hasFirstDataByte {
            truncatedMessages += 1
        }
        hasFirstDataByte = false
        messageStarted = false
        switch byte {
        case 0x80...0xEF, 0xF1...0xF3:
            status = byte
            messageStarted = true
        case 0xF0:
            status = 0xF0
            sysExPayload.removeAll(keepingCapacity: true)
            sysExOverflowed = false
        case 0xF6:
            status = 0
            emit(.tuneRequest)
        default:  // F4, F5 undefined; F7 without a SysEx
            status = 0
            skippedBytes += 1
        }
    }

    private mutating func finishSysEx(emit: (MIDIMessage) -> Void) {
        status = 0
        if sysExOverflowed {
            truncatedMessages += 1
        } else {
            emit(.sysEx(sysExPayload))
        }
        sysExPayload.removeAll(keepingCapacity: true)
    }

    private mutating func consumeData(_ byte: UInt8, emit: (MIDIMessage) -> Void) {
        switch status {
        case 0:
            skippedBytes += 1
        case 0xF0:
            if sysExPayload.count < maxSysExLength {
                sysExPayload.append(byte)
            } else {
                sysExOverflowed = true
                skippedBytes += 1
            }
        case 0xF1:
            completeSystemCommon(.mtcQuarterFrame(byte), emit: emit)
        case 0xF3:
            completeSystemCommon(.songSelect(byte), emit: emit)
        case 0xF2:
            guard hasFirstDataByte else { return rememberFirstDataByte(byte) }
            completeSystemCommon(.songPosition(UInt16(firstDataByte) | UInt16(byte) << 7), emit: emit)
        default:
            if MIDIMessage.dataLength(ofChannelStatus: status) == 1 {
                messageStarted = false
                emit(.channelVoice(status: status, data1: byte, data2: 0))
            } else if hasFirstDataByte {
                messageStarted = false
                hasFirstDataByte = false
                emit(.channelVoice(status: status, data1: firstDataByte, data2: byte))
            } else {
                rememberFirstDataByte(byte)
            }
        }
    }

    /// System common messages complete without leaving a running status.
    private mutating func completeSystemCommon(_ message: MIDIMessage, emit: (MIDIMessage) -> Void) {
        status = 0
        messageStarted = false
        hasFirstDataByte = false
        emit(message)
    }

    private mutating func rememberFirstDataByte(_ byte: UInt8) {
        firstDataByte = byte
        hasFirstDataByte = true
    }
}
