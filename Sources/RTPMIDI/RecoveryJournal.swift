/// A packet's recovery journal (RFC 6295 §5): the state a receiver needs to repair
/// the loss of any packets after the checkpoint.
///
/// - Thread: any (a value).
public struct RecoveryJournal: Hashable, Sendable {
    /// The checkpoint packet: the journal covers the commands of the packets after it.
    public var checkpoint: UInt16
    /// One per channel (at most 16, distinct channels).
    public var channels: [ChannelJournal]
    public var system: SystemJournal?

    public init(checkpoint: UInt16, channels: [ChannelJournal] = [], system: SystemJournal? = nil) {
        self.checkpoint = checkpoint
        self.channels = channels
        self.system = system
    }

    /// An element encodes a command of the previous packet (the S bit must be 0).
    var anyInPreviousPacket: Bool {
        channels.contains(where: \.anyInPreviousPacket) || system?.anyInPreviousPacket == true
    }

    /// S Y A H TOTCHAN | checkpoint, the system journal, the channel journals.
    /// S is 1 only with a system journal: S=0 is always safe (a receiver reads the whole
    /// journal), and pymidi (packets.py) reads a system journal where S, not Y, is 1 —
    /// so with S=Y=0 it parses the channel journals, and with S=0, Y=1 it misreads the
    /// journal but keeps the commands.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let channels = channels.prefix(16)
        out.append(Self.firstByte(anyInPreviousPacket: anyInPreviousPacket, hasSystemJournal: system != nil,
                                  channelCount: channels.count))
        out.appendBigEndian(checkpoint)
        system?.encode(into: &out)
        for channel in channels { channel.encode(into: &out) }
    }

    /// S Y A H TOTCHAN for a journal of `channelCount` (at most 16) channel journals.
    static func firstByte(anyInPreviousPacket: Bool, hasSystemJournal: Bool, channelCount: Int) -> UInt8 {
        var first: UInt8 = anyInPreviousPacket || !hasSystemJournal ? 0 : 0x80
        if hasSystemJournal { first |= 0x40 }
        if channelCount > 0 { first |= 0x20 | UInt8(channelCount - 1) }
        return first
    }

    /// Reads a journal from `reader` up to its end.
    ///
    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let first = try reader.byte()
        checkpoint = try reader.uint16()
        system = first & 0x40 != 0 ? try SystemJournal(decoding: &reader) : nil
        channels = []
        guard first & 0x20 != 0 else { return }
        for _ in 0...Int(first & 0x0F) {
            let channel = try ChannelJournal(decoding: &reader)
            guard !channels.contains(where: { $0.channel == channel.channel }) else { throw .repeatedChannel(channel.channel) }
            channels.append(channel)
        }
    }
}

/// A length-prefixed journal's bytes: a reader over the `length` bytes that started
/// `headerLength` bytes back, the header already read.
/// - Thread: any (pure).
func journalBody(_ reader: inout ByteReader, length: Int, headerLength: Int) throws(RTPMIDIDecodingError) -> ByteReader {
    guard length >= headerLength else { throw .badJournalLength }
    guard length - headerLength <= reader.remaining else { throw .truncatedJournal }
    return try reader.section(length - headerLength, failure: .badJournalLength)
}

/// Writes a `headerLength`-byte header, then what `body` appends after it, in place: the
/// header is `flags` with the whole length, header included, in its low bits.
/// - Thread: any (pure).
func appendLengthPrefixed(header flags: UInt32, headerLength: Int, to out: inout [UInt8], body: (inout [UInt8]) -> Void) {
    let start = out.count
    out.append(contentsOf: repeatElement(0, count: headerLength))
    body(&out)
    let header = flags | UInt32(out.count - start)
    for index in 0..<headerLength {
        out[start + index] = UInt8(truncatingIfNeeded: header >> (8 * UInt32(headerLength - 1 - index)))
    }
}
