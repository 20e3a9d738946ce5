/// Chapter P of a channel journal (RFC 6295 Appendix A.2): the latest Program Change
/// in the checkpoint history and the bank it selected.
///
/// - Thread: any (a value).
public struct ChapterP: Hashable, Sendable {
    public var program: UInt8
    /// The bank select (controllers 0 and 32) in effect at the Program Change, if any was sent.
    public var bank: ProgramBank?
    /// The Program Change was in the packet just before the journal's (the S bit is 0).
    public var inPreviousPacket: Bool

    public init(program: UInt8, bank: ProgramBank? = nil, inPreviousPacket: Bool = false) {
        self.program = program
        self.bank = bank
        self.inPreviousPacket = inPreviousPacket
    }

    /// S PROGRAM | B BANK-MSB | X BANK-LSB (X, the reset-all-controllers mark, is sent 0).
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        out.append((inPreviousPacket ? 0 : 0x80) | program & 0x7F)
        out.append((bank == nil ? 0 : 0x80) | (bank?.msb ?? 0) & 0x7F)
        out.append((bank?.lsb ?? 0) & 0x7F)
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let first = try reader.byte(), second = try reader.byte(), third = try reader.byte()
        program = first & 0x7F
        inPreviousPacket = first & 0x80 == 0
        bank = second & 0x80 != 0 ? ProgramBank(msb: second & 0x7F, lsb: third & 0x7F) : nil
    }
}

/// A bank select: controller 0 (MSB) and 32 (LSB).
///
/// - Thread: any (a value).
public struct ProgramBank: Hashable, Sendable {
    public var msb: UInt8
    public var lsb: UInt8

    public init(msb: UInt8, lsb: UInt8) {
        self.msb = msb
        self.lsb = lsb
    }
}
