/// Little-endian fields and RIFF chunks, for the tests that build SoundFonts byte by byte
/// (`MinimalSoundFont`, `TestSoundFont`): a builder conforms and calls them as its own.
public protocol SoundFontBytes {}

extension SoundFontBytes {
    public func u16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    public func u32(_ value: UInt32) -> [UInt8] { u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16)) }

    /// `text` in a field of `length` bytes, padded with zeros.
    public func ascii(_ text: String, _ length: Int) -> [UInt8] {
        Array(text.utf8.prefix(length)) + [UInt8](repeating: 0, count: max(0, length - text.utf8.count))
    }

    /// A chunk: its id, size and data, padded to an even length.
    public func chunk(_ id: String, _ data: [UInt8]) -> [UInt8] {
        Array(id.utf8) + u32(UInt32(data.count)) + data + (data.count % 2 == 1 ? [0] : [])
    }

    public func list(_ type: String, _ chunks: [UInt8]) -> [UInt8] { chunk("LIST", Array(type.utf8) + chunks) }

    /// The whole file: `INFO` and `sdta` lists as given, then the hydra's nine chunks in
    /// SF2 order (`phdr`, `pbag`, `pmod`, `pgen`, `inst`, `ibag`, `imod`, `igen`, `shdr`).
    public func soundFont(info: [UInt8], sdta: [UInt8], hydra: [(String, [UInt8])]) -> [UInt8] {
        let pdta = list("pdta", hydra.flatMap { chunk($0.0, $0.1) })
        let body = Array("sfbk".utf8) + info + sdta + pdta
        return Array("RIFF".utf8) + u32(UInt32(body.count)) + body
    }
}
