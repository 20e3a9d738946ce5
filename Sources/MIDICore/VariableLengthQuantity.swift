/// Variable-length quantities (VLQ) as SMF stores delta times and lengths: 7 bits per
/// byte, most significant first, high bit set on all but the last byte, at most 4
/// bytes (0…0x0FFFFFFF). RTP-MIDI's delta times are the same.
///
/// - Thread: any.
public enum VariableLengthQuantity {
    /// The largest value 4 bytes can hold.
    public static let maximum: UInt32 = 0x0FFF_FFFF

    /// Appends `value` (clamped to `maximum`) in 1…4 bytes.
    public static func append(_ value: UInt32, to out: inout [UInt8]) {
        let value = min(value, maximum)
        var shift: UInt32 = 21
        while shift > 0 && value >> shift == 0 { shift -= 7 }
        while shift > 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift) & 0x7F | 0x80)
            shift -= 7
        }
        out.append(UInt8(truncatingIfNeeded: value) & 0x7F)
    }
}

extension SMFByteReader {
    /// Reads a VLQ of at most 4 bytes.
    mutating func readQuantity() throws(SMFError) -> UInt32 {
        let start = offset
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = try readByte()
            value = value << 7 | UInt32(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        throw SMFError(offset: start, reason: .quantityTooLong)
    }
}
