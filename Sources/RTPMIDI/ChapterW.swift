/// Chapter W of a channel journal (RFC 6295 Appendix A.5): the latest pitch wheel value.
///
/// - Thread: any (a value).
public struct ChapterW: Hashable, Sendable {
    /// 14 bits, 8192 the centre.
    public var value: UInt16
    /// The Pitch Wheel command was in the packet just before the journal's (the S bit is 0).
    public var inPreviousPacket: Bool

    public init(value: UInt16, inPreviousPacket: Bool = false) {
        self.value = value
        self.inPreviousPacket = inPreviousPacket
    }

    /// S FIRST | R SECOND: the command's two data bytes, least significant first.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        out.append((inPreviousPacket ? 0 : 0x80) | UInt8(value & 0x7F))
        out.append(UInt8(value >> 7 & 0x7F))
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let first = try reader.byte(), second = try reader.byte()
        value = UInt16(first & 0x7F) | UInt16(second & 0x7F) << 7
        inPreviousPacket = first & 0x80 == 0
    }
}
