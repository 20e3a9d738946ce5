import TestSupport

/// A small, valid SoundFont built field by field as SF2.01 lays it out: one preset
/// ("Test Piano", bank 0 program 0) → one instrument → one sample of `frames` frames. The
/// malformed-file tests break one field of it at a time.
struct MinimalSoundFont: SoundFontBytes {
    var version: (UInt16, UInt16) = (2, 1)
    var frames = 64
    /// The preset's bag index in the terminal phdr record (`presetZones` when valid).
    var terminalPresetBag: UInt16?
    /// The preset's zones, each naming the instrument, and the instrument's zones, each on
    /// the sample: their product is the font's layers (`SoundFont.layerLimit`).
    var presetZones = 1
    var instrumentZones = 1
    /// The instrument index the preset zone names (0 when valid).
    var instrumentIndex: UInt16 = 0
    /// The sample header's end frame (`frames` when valid).
    var sampleEnd: UInt32?
    /// Bytes appended to the pbag chunk (a size that is not a multiple of 4 when 1…3).
    var pbagExtra: [UInt8] = []
    /// An SF3 font instead: `smpl` holds this Ogg Vorbis stream as the one sample, which is
    /// `frames` frames long once decoded (its loop then counts from the sample's start), and
    /// an odd-sized `sdta` goes without its pad byte, as MuseScore writes SF3.
    var vorbis: [UInt8]?
    /// An `sm24` chunk after `smpl` with these bytes (24-bit frames from version 2.04 on).
    var sm24: [UInt8]?

    var bytes: [UInt8] {
        let version = vorbis == nil ? version : (3, 1)
        let info = list("INFO", chunk("ifil", u16(version.0) + u16(version.1)) + chunk("INAM", ascii("Minimal", 8)))
        let smpl = vorbis ?? (0..<frames).flatMap { u16(UInt16(bitPattern: Int16($0 * 256 - 8192))) }
        var sdta = list("sdta", chunk("smpl", smpl) + (sm24.map { chunk("sm24", $0) } ?? []))
        if vorbis != nil, smpl.count % 2 == 1 {
            sdta.removeLast()  // the pad byte
            sdta[4..<8] = ArraySlice(u32(UInt32(4 + 8 + smpl.count)))
        }
        let phdr = ascii("Test Piano", 20) + u16(0) + u16(0) + u16(0) + u32(0) + u32(0) + u32(0)
            + ascii("EOP", 20) + u16(0) + u16(0) + u16(terminalPresetBag ?? UInt16(presetZones)) + u32(0) + u32(0) + u32(0)
        let pbag = (0...presetZones).flatMap { u16(UInt16($0)) + u16(0) } + pbagExtra
        let pgen = (0..<presetZones).flatMap { _ in u16(41) + u16(instrumentIndex) } + u16(0) + u16(0)
        let inst = ascii("Test Instrument", 20) + u16(0) + ascii("EOI", 20) + u16(UInt16(instrumentZones))
        let ibag = (0...instrumentZones).flatMap { u16(UInt16(2 * $0)) + u16(0) }
        let igen = (0..<instrumentZones).flatMap { _ in u16(43) + [0, 127] + u16(53) + u16(0) } + u16(0) + u16(0)
        let modulator = [UInt8](repeating: 0, count: 10)
        let shdr = ascii("Test Sample", 20) + u32(0) + u32(sampleEnd ?? UInt32(vorbis?.count ?? frames)) + u32(8)
            + u32(UInt32(frames - 8)) + u32(44100) + [60, 0] + u16(0) + u16(vorbis == nil ? 1 : 0x11)
            + ascii("EOS", 20) + [UInt8](repeating: 0, count: 26)
        return soundFont(info: info, sdta: sdta, hydra: [
            ("phdr", phdr), ("pbag", pbag), ("pmod", modulator), ("pgen", pgen), ("inst", inst), ("ibag", ibag),
            ("imod", modulator), ("igen", igen), ("shdr", shdr),
        ])
    }
}
