/// Reads network-order (big-endian) integers from a datagram, never past its end: each
/// read returns `nil` once the bytes run out.
///
/// - Thread: any (a value).
struct BigEndianReader {
    private let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) {
        (self.bytes, self.offset) = (bytes, offset)
    }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { bytes[min(offset, bytes.count)...] }

    mutating func uint8() -> UInt8? { read(UInt8.self) }
    mutating func uint16() -> UInt16? { read(UInt16.self) }
    mutating func uint32() -> UInt32? { read(UInt32.self) }
    mutating func uint64() -> UInt64? { read(UInt64.self) }

    /// Steps over `count` bytes; false when fewer are left.
    mutating func skip(_ count: Int) -> Bool {
        guard bytes.count - offset >= count else { return false }
        offset += count
        return true
    }

    private mutating func read<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard bytes.count - offset >= size else { return nil }
        var value: T = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | T(byte) }
        offset += size
        return value
    }
}

extension [UInt8] {
    /// Appends `value` in network order.
    /// - Thread: any.
    mutating func appendBigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T) {
        for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> T(shift)))
        }
    }
}
