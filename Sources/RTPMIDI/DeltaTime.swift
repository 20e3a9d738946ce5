/// RFC 6295's delta times: 1…4 octets, 7 bits each, most significant first, the high
/// bit set on all but the last (as a Standard MIDI File's). A one-octet delta (< 128)
/// reads the same in the little-endian VarInt some peers (pymidi) parse.
enum DeltaTime {
    /// The largest delta four octets hold.
    static let maximum: UInt32 = 0x0FFF_FFFF

    /// Appends `value`, clamped to `maximum`.
    ///
    /// - Thread: any.
    static func append(_ value: UInt32, to out: inout [UInt8]) {
        let value = min(value, maximum)
        var shift: UInt32 = 21
        while shift > 0 && value >> shift == 0 { shift -= 7 }
        while shift > 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift) & 0x7F | 0x80)
            shift -= 7
        }
        out.append(UInt8(truncatingIfNeeded: value) & 0x7F)
    }

    /// Reads one delta time.
    ///
    /// - Thread: any.
    static func read(from reader: inout ByteReader) throws(RTPMIDIDecodingError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = try? reader.byte() else { throw .badDeltaTime }
            value = value << 7 | UInt32(byte & 0x7F)
            if byte < 0x80 { return value }
        }
        throw .badDeltaTime
    }
}
