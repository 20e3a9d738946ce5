/// Reads big-endian fields from a byte array within `offset..<end`, throwing
/// `failure` instead of reading past the end: every read of untrusted bytes goes
/// through one of these.
///
/// - Thread: any (a value).
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset: Int
    let end: Int
    /// The error a read past `end` throws.
    let failure: RTPMIDIDecodingError

    init(_ bytes: [UInt8], from offset: Int = 0, to end: Int? = nil, failure: RTPMIDIDecodingError) {
        self.bytes = bytes
        self.offset = offset
        self.end = end ?? bytes.count
        self.failure = failure
    }

    var remaining: Int { end - offset }
    var isAtEnd: Bool { offset >= end }

    /// The next byte, not consumed.
    func peek() throws(RTPMIDIDecodingError) -> UInt8 {
        guard offset < end else { throw failure }
        return bytes[offset]
    }

    mutating func byte() throws(RTPMIDIDecodingError) -> UInt8 {
        let value = try peek()
        offset += 1
        return value
    }

    mutating func uint16() throws(RTPMIDIDecodingError) -> UInt16 {
        UInt16(try byte()) << 8 | UInt16(try byte())
    }

    mutating func uint32() throws(RTPMIDIDecodingError) -> UInt32 {
        UInt32(try uint16()) << 16 | UInt32(try uint16())
    }

    mutating func uint64() throws(RTPMIDIDecodingError) -> UInt64 {
        UInt64(try uint32()) << 32 | UInt64(try uint32())
    }

    /// The bytes not read yet, which this reader then steps over.
    mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = max(offset, end) }
        return bytes[min(offset, end)..<end]
    }

    /// Skips `count` bytes.
    mutating func skip(_ count: Int) throws(RTPMIDIDecodingError) {
        guard count >= 0, count <= remaining else { throw failure }
        offset += count
    }

    /// A reader over the next `count` bytes, which this one skips; `failure` when fewer remain.
    mutating func section(_ count: Int, failure sectionFailure: RTPMIDIDecodingError? = nil) throws(RTPMIDIDecodingError) -> ByteReader {
        guard count >= 0, count <= remaining else { throw failure }
        let inner = ByteReader(bytes, from: offset, to: offset + count, failure: sectionFailure ?? failure)
        offset += count
        return inner
    }
}
