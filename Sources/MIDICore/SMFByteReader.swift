/// A cursor over the bytes of one SMF chunk. Every read is checked against `end`, so
/// no length field can make the reader run past its chunk or allocate more than
/// the chunk holds.
struct SMFByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int

    init(bytes: [UInt8], from start: Int, to end: Int) {
        self.bytes = bytes
        self.offset = start
        self.end = end
    }

    var isAtEnd: Bool { offset >= end }
    var remaining: Int { end - offset }

    mutating func readByte() throws(SMFError) -> UInt8 {
        guard offset < end else { throw SMFError(offset: offset, reason: .trackEndsMidEvent) }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads the `length` bytes of a SysEx or meta event after checking that the chunk holds them.
    mutating func readBytes(_ length: UInt32) throws(SMFError) -> [UInt8] {
        guard Int(length) <= remaining else {
            throw SMFError(offset: offset, reason: .eventExceedsTrack(length: length, remaining: remaining))
        }
        defer { offset += Int(length) }
        return Array(bytes[offset..<offset + Int(length)])
    }

    /// Skips forward to the end of the chunk.
    mutating func skipToEnd() {
        offset = end
    }
}

extension [UInt8] {
    /// Big-endian 16-bit value at `offset`; the caller has checked the bounds.
    func uint16(at offset: Int) -> UInt16 {
        UInt16(self[offset]) << 8 | UInt16(self[offset + 1])
    }

    /// Big-endian 32-bit value at `offset`; the caller has checked the bounds.
    func uint32(at offset: Int) -> UInt32 {
        UInt32(uint16(at: offset)) << 16 | UInt32(uint16(at: offset + 2))
    }
}
