/// Little-endian reads from a byte buffer, every one checked against the buffer's end;
/// a read past it throws the error `outOfBounds` makes.
///
/// - Thread: any (a view; the buffer must outlive it).
struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    /// The reader's first byte's offset in the file, for errors.
    let fileOffset: Int
    let outOfBounds: (Int, String) -> SoundFontError

    func uint8(at offset: Int) throws(SoundFontError) -> UInt8 {
        try check(offset, 1)
        return bytes[offset]
    }

    func uint16(at offset: Int) throws(SoundFontError) -> UInt16 {
        try check(offset, 2)
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    func int16(at offset: Int) throws(SoundFontError) -> Int16 {
        Int16(bitPattern: try uint16(at: offset))
    }

    func uint32(at offset: Int) throws(SoundFontError) -> UInt32 {
        try check(offset, 4)
        return UInt32(try uint16(at: offset)) | UInt32(try uint16(at: offset + 2)) << 16
    }

    /// Four ASCII characters (a chunk id).
    func fourCC(at offset: Int) throws(SoundFontError) -> String {
        try check(offset, 4)
        return String(decoding: bytes[offset..<offset + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") },
                      as: UTF8.self)
    }

    /// A fixed-size, zero-padded name (20 bytes in the hydra), as text; control characters
    /// become "?", so a name printed in a message or a listing stays on its line.
    func name(at offset: Int, length: Int) throws(SoundFontError) -> String {
        try check(offset, length)
        let raw = bytes[offset..<offset + length].prefix { $0 != 0 }.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }
        return String(decoding: raw, as: UTF8.self).trimmingTrailingSpaces()
    }

    private func check(_ offset: Int, _ count: Int) throws(SoundFontError) {
        guard offset >= 0, count <= bytes.count, offset <= bytes.count - count else {
            throw outOfBounds(fileOffset + offset, "needs \(count) bytes at \(fileOffset + offset), the data ends at \(fileOffset + bytes.count)")
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
