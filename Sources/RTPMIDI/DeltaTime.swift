import MIDICore

/// RFC 6295's delta times: 1…4 octets, 7 bits each, most significant first, the high
/// bit set on all but the last — a Standard MIDI File's variable-length quantities
/// (`VariableLengthQuantity`). A one-octet delta (< 128) reads the same in the
/// little-endian VarInt some peers (pymidi) parse.
/// - Thread: any (pure).
enum DeltaTime {
    /// Appends `value`, clamped to `VariableLengthQuantity.maximum`.
    ///
    /// - Thread: any.
    static func append(_ value: UInt32, to out: inout [UInt8]) {
        VariableLengthQuantity.append(value, to: &out)
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
