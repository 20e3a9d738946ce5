import MIDICore

/// One RTP-MIDI packet (RFC 6295): the RTP header, the MIDI command section and the
/// recovery journal.
///
/// - Thread: any (a value).
public struct RTPMIDIPacket: Hashable, Sendable {
    /// The RTP payload type Apple's sessions (and pymidi, rtpmidid) use.
    public static let payloadType: UInt8 = 0x61
    /// The most bytes of commands one packet holds (the command section's 12-bit LEN).
    public static let maximumCommandSectionLength = 0x0FFF

    public var sequenceNumber: UInt16
    /// The RTP timestamp: the session's clock (10 kHz in Apple's sessions) when the
    /// first command happens, less its delta.
    public var timestamp: UInt32
    public var ssrc: UInt32
    public var commands: [RTPMIDICommand]
    public var journal: RecoveryJournal?

    public init(sequenceNumber: UInt16, timestamp: UInt32, ssrc: UInt32, commands: [RTPMIDICommand], journal: RecoveryJournal? = nil) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.ssrc = ssrc
        self.commands = commands
        self.journal = journal
    }

    /// The packet's bytes: V=2, no padding, extension or CSRCs; M set when the command
    /// section has commands (RFC 6295 §2.1; Apple's peers send M=1 with commands);
    /// payload type 0x61. Commands past `maximumCommandSectionLength` bytes are left out
    /// (a sender splits longer lists over packets).
    ///
    /// - Thread: any.
    public func encoded() -> [UInt8] {
        encoded { out in
            guard let journal else { return false }
            journal.encode(into: &out)
            return true
        }
    }

    /// The packet's bytes with the journal `appendJournal` writes in place of `journal`:
    /// it appends an encoded recovery journal and returns true, or appends nothing and
    /// returns false (a sender's `JournalSender.encodeJournal(into:)`).
    ///
    /// - Thread: any.
    public func encoded(appendingJournal appendJournal: (inout [UInt8]) -> Bool) -> [UInt8] {
        let list = CommandList.encode(commands, capacity: Self.maximumCommandSectionLength)
        var out: [UInt8] = []
        out.reserveCapacity(512)  // the header, a short command list and a journal, in one allocation
        out += [0x80, (list.bytes.isEmpty ? 0 : 0x80) | Self.payloadType]
        out.appendBigEndian(sequenceNumber)
        out.appendBigEndian(timestamp)
        out.appendBigEndian(ssrc)
        // Command section header: B J Z P LEN (4 bits, or 12 with B); J once the journal is written.
        let flagsAt = out.count
        let flags: UInt8 = list.hasFirstDelta ? 0x20 : 0
        if list.bytes.count > 0x0F {
            out.append(0x80 | flags | UInt8(list.bytes.count >> 8))
            out.append(UInt8(truncatingIfNeeded: list.bytes.count))
        } else {
            out.append(flags | UInt8(list.bytes.count))
        }
        out += list.bytes
        if appendJournal(&out) { out[flagsAt] |= 0x40 }
        return out
    }

    /// Decodes a packet. Accepts CSRCs, a header extension and padding (skipped) and any
    /// payload type; the session checks the SSRC and payload type it expects.
    ///
    /// - Thread: any.
    public init(decoding bytes: some Collection<UInt8>) throws(RTPMIDIDecodingError) {
        try self.init(decoding: bytes) { _ in true }
    }

    /// Decodes a packet, reading its recovery journal only when `readsJournal` says so for
    /// the packet's sequence number (a receiver needs it only after a loss); a journal not
    /// read is left nil, its bytes unchecked.
    ///
    /// - Thread: any.
    init(decoding bytes: some Collection<UInt8>, readingJournal readsJournal: (UInt16) -> Bool) throws(RTPMIDIDecodingError) {
        var packet = Array(bytes)
        guard packet.count >= 13 else { throw .truncatedHeader }
        let version = packet[0] >> 6
        guard version == 2 else { throw .badVersion(version) }
        if packet[0] & 0x20 != 0 {  // P: the last byte counts the padding, itself included.
            let padding = Int(packet[packet.count - 1])
            guard padding > 0, padding <= packet.count - 13 else { throw .badRTPFraming }
            packet.removeLast(padding)
        }
        var reader = ByteReader(packet, from: 2, failure: .truncatedHeader)
        sequenceNumber = try reader.uint16()
        timestamp = try reader.uint32()
        ssrc = try reader.uint32()
        reader = ByteReader(packet, from: reader.offset, failure: .badRTPFraming)
        try reader.skip(Int(packet[0] & 0x0F) * 4)  // CSRC list
        if packet[0] & 0x10 != 0 {  // X: a profile word, then the length in 32-bit words
            try reader.skip(2)
            try reader.skip(Int(try reader.uint16()) * 4)
        }
        reader = ByteReader(packet, from: reader.offset, failure: .truncatedHeader)
        let header = try reader.byte()
        var length = Int(header & 0x0F)
        if header & 0x80 != 0 { length = length << 8 | Int(try reader.byte()) }
        guard length <= reader.remaining else {
            throw .commandSectionOverrunsPacket(length: length, available: reader.remaining)
        }
        var list = try reader.section(length, failure: .truncatedCommand)
        commands = try CommandList.decode(&list, hasFirstDelta: header & 0x20 != 0)
        reader = ByteReader(packet, from: reader.offset, failure: .truncatedJournal)
        let hasJournal = header & 0x40 != 0
        journal = hasJournal && readsJournal(sequenceNumber) ? try RecoveryJournal(decoding: &reader) : nil
        guard reader.isAtEnd || (hasJournal && journal == nil) else { throw .trailingBytes(reader.remaining) }
    }

    /// The SSRC of the packet in `datagram` (bytes 8…11), nil when it is too short to have one.
    ///
    /// - Thread: any.
    static func ssrc(of datagram: [UInt8]) -> UInt32? {
        guard datagram.count >= 12 else { return nil }
        return datagram[8..<12].reduce(0) { $0 << 8 | UInt32($1) }
    }
}

/// - Thread: any (a value).
extension Array where Element == UInt8 {
    /// Appends `value`'s bytes, most significant first.
    mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        for shift in stride(from: Value.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }
}
