/// A SoundFont 2 file, read and checked: its presets, instruments and sample headers, and
/// its 16-bit sample data, which stays in the file's mapping (`SoundFont.open`) rather than
/// being copied. An SF3 font's Vorbis-compressed samples are decoded while it is read
/// (`SF3Samples`), into memory of their own.
///
/// - Thread: any (immutable after reading).
public struct SoundFont: Sendable {
    public var name: String
    /// The `ifil` version, e.g. (2, 1).
    public var version: (major: Int, minor: Int)
    public var presets: [SoundFontPreset]
    public var instruments: [SoundFontInstrument]
    public var samples: [SoundFontSample]
    /// The frames of the `smpl` chunk (mono, 16-bit little-endian), with the `sm24` chunk's
    /// low bytes when the font has them (24-bit frames).
    public let sampleData: SoundFontSampleData

    /// Reads a font from bytes in memory (the fuzz target and tests); the sample data is
    /// copied. `file` names it in errors.
    /// - Thread: any.
    public init(bytes: [UInt8], file: String) throws(SoundFontError) {
        let storage = bytes.withUnsafeBytes { SoundFontSampleData.Storage.copy($0) }
        self = try storage.withBytes { buffer throws(SoundFontError) in try SoundFont(buffer, file: file, storage: storage) }
    }

    /// Opens the font at `path`: maps the file and reads its structure; the sample data is
    /// read from the mapping as it plays. A 142 MB font opens in milliseconds.
    /// - Thread: any but render (it reads the disk).
    public static func open(_ path: String) throws(SoundFontError) -> SoundFont {
        let file = String(path.split(separator: "/").last ?? Substring(path))
        let storage = try SoundFontSampleData.Storage.map(path, name: file)
        return try storage.withBytes { buffer throws(SoundFontError) in try SoundFont(buffer, file: file, storage: storage) }
    }

    private init(_ bytes: UnsafeRawBufferPointer, file: String, storage: SoundFontSampleData.Storage) throws(SoundFontError) {
        let walker = RIFFWalker(file: file, bytes: bytes)
        let read = walker.reader("RIFF")
        guard bytes.count >= 12, try read.fourCC(at: 0) == "RIFF", try read.fourCC(at: 8) == "sfbk" else {
            throw SoundFontError(file: file, chunk: "RIFF", offset: 0, problem: "not a SoundFont (no 'RIFF' … 'sfbk' header)",
                                 fix: "give a .sf2 file")
        }
        let riffSize = Int(try read.uint32(at: 4))
        let end = max(12, min(bytes.count, 8 + riffSize))  // a RIFF size below 4 holds no chunks
        let top = try walker.chunks(in: 12..<end, path: "")
        let info = try walker.list("INFO", in: top)
        let sdta = try walker.list("sdta", in: top)
        let pdta = try walker.list("pdta", in: top)

        let infoRead = walker.reader("INFO")
        if let ifil = info.first(where: { $0.id == "ifil" }), ifil.size >= 4 {
            version = (Int(try infoRead.uint16(at: ifil.offset)), Int(try infoRead.uint16(at: ifil.offset + 2)))
        } else {
            version = (2, 0)
        }
        name = try info.first { $0.id == "INAM" }.map { chunk throws(SoundFontError) in
            try infoRead.name(at: chunk.offset, length: chunk.size)
        } ?? file

        let smpl = sdta.first { $0.id == "smpl" } ?? RIFFChunk(id: "smpl", offset: 0, size: 0)
        let compressed = version.major == 3
        var hydra = SoundFontHydra(walker: walker, chunks: Dictionary(pdta.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
                                   frameCount: compressed ? smpl.size : smpl.size / 2)
        hydra.loopsAsRead = compressed
        (presets, instruments, samples) = try hydra.read()
        try Self.checkLayers(presets, instruments, file: file, at: pdta.first { $0.id == "phdr" }?.offset ?? 0)
        if compressed {
            let decoded = try SF3Samples.decode(samples, smpl: UnsafeRawBufferPointer(rebasing: bytes[smpl.offset..<smpl.offset + smpl.size]),
                                                at: smpl.offset, file: file)
            samples = decoded.samples
            let frameCount = decoded.frames.count
            sampleData = SoundFontSampleData(storage: .adopting(decoded.frames), byteOffset: 0, frameCount: frameCount)
        } else {
            let frameCount = smpl.size / 2
            sampleData = SoundFontSampleData(storage: storage, byteOffset: smpl.offset,
                                             lowByteOffset: Self.lowBytes(in: sdta, frames: frameCount, version: version),
                                             frameCount: frameCount)
        }
    }

    /// Where the `sm24` chunk's bytes start, when the font's frames have 24 bits: as SF2.04
    /// says and FluidSynth does, only in a font of version 2.04 or later whose `sm24` holds
    /// one byte per frame of `smpl` (its pad byte aside); otherwise the chunk is ignored and
    /// the frames play with 16 bits.
    private static func lowBytes(in sdta: [RIFFChunk], frames: Int, version: (major: Int, minor: Int)) -> Int? {
        guard version.major > 2 || (version.major == 2 && version.minor >= 4),
              let sm24 = sdta.first(where: { $0.id == "sm24" }), frames > 0,
              sm24.size == frames || sm24.size == frames + 1 else { return nil }
        return sm24.offset
    }

    /// The most (preset zone, instrument zone) layers a font may have: each becomes a region
    /// an instrument keeps in memory (about 500 bytes). FluidR3_GM has 18,082.
    public static let layerLimit = 1 << 19
    /// The largest SoundFont opened: 4 GiB, the most a RIFF file can say it holds.
    public static let sizeLimit = 1 << 32

    /// Refuses a font whose presets layer more instrument zones than `layerLimit`: a few
    /// kilobytes of zones that name each other could otherwise ask for gigabytes.
    private static func checkLayers(_ presets: [SoundFontPreset], _ instruments: [SoundFontInstrument], file: String,
                                    at offset: Int) throws(SoundFontError) {
        var layers = 0
        for preset in presets {
            for zone in preset.zones {
                guard let instrument = zone.target else { continue }
                layers += instruments[instrument].zones.count
                guard layers <= layerLimit else {
                    throw SoundFontError(file: file, chunk: "pdta/phdr", offset: offset,
                                         problem: "its presets layer more than \(layerLimit) instrument zones",
                                         fix: "the file is damaged or not a SoundFont; get a fresh copy of it")
                }
            }
        }
    }

    /// The preset for `bank` and `program`, if the font has it.
    public func preset(bank: Int, program: Int) -> SoundFontPreset? {
        presets.first { $0.bank == bank && $0.program == program }
    }
}
