/// Offsets added to every voice's generators, in the generators' own units, after the
/// preset's and instrument's zones and the modulators, as FluidSynth's `fluid_synth_set_gen`
/// (and its SoundFont NRPNs) add a channel's `gen[].nrpn` values: one row per channel (set
/// by NRPN) plus one row for the whole node (set by its parameters). Voices read the sum of
/// the two (`row(channel:)`), kept up to date whenever either changes.
///
/// All zero at first: adding zeros leaves every generator exactly as the font has it.
///
/// - Thread: render, but `allocate`, `deallocate` on control; everything else on render (plain
///   arithmetic on memory allocated in `allocate`).
struct SoundFontGeneratorOffsets {
    /// 16 channel rows, 16 summed rows, one node row, each `GeneratorKind.count` wide.
    private var storage: UnsafeMutablePointer<Float>?

    private static let width = GeneratorKind.count
    private static let summedRows = 16, nodeRow = 32, rows = 33

    /// Reserves the rows, all zero.
    /// - Thread: control.
    mutating func allocate() {
        deallocate()
        storage = .allocate(capacity: Self.rows * Self.width)
        storage!.initialize(repeating: 0, count: Self.rows * Self.width)
    }

    /// - Thread: control.
    mutating func deallocate() {
        storage?.deallocate()
        storage = nil
    }

    /// What a voice on `channel` adds to its generators: the channel's offsets plus the node's.
    /// - Thread: render.
    @inline(__always)
    func row(channel: Int) -> UnsafePointer<Float> {
        UnsafePointer(storage! + (Self.summedRows + channel) * Self.width)
    }

    /// The node's offset of `kind`.
    /// - Thread: render.
    func node(_ kind: Int) -> Float { storage![Self.nodeRow * Self.width + kind] }

    /// The channel's offset of `kind` (what NRPNs set).
    /// - Thread: render.
    func channel(_ channel: Int, _ kind: Int) -> Float { storage![channel * Self.width + kind] }

    /// Sets the whole node's offset of `kind`.
    /// - Thread: render.
    mutating func setNode(_ kind: Int, _ value: Float) {
        let storage = storage!
        storage[Self.nodeRow * Self.width + kind] = value
        for channel in 0..<16 { sum(channel, kind) }
    }

    /// Sets one channel's offset of `kind`.
    /// - Thread: render.
    mutating func setChannel(_ channel: Int, _ kind: Int, _ value: Float) {
        storage![channel * Self.width + kind] = value
        sum(channel, kind)
    }

    /// Every offset of `channel` back to zero (controllers reset, CC 121, as FluidSynth does).
    /// - Thread: render.
    mutating func resetChannel(_ channel: Int) {
        for kind in 0..<Self.width { setChannel(channel, kind, 0) }
    }

    private func sum(_ channel: Int, _ kind: Int) {
        let storage = storage!
        storage[(Self.summedRows + channel) * Self.width + kind] =
            storage[channel * Self.width + kind] + storage[Self.nodeRow * Self.width + kind]
    }

    /// FluidSynth's NRPN scale of each generator (`fluid_gen_info[].nrpn_scale`): the 14-bit
    /// data entry, less 8192, times this is the offset; 0 where an NRPN may not set it (the
    /// structural generators, the key-number and root-key overrides, sample modes, exclusive
    /// class, and `pitch`), and for the velocity override, which a voice reads before any
    /// offset.
    static func nrpnScale(_ kind: Int) -> Float {
        switch kind {
        case GeneratorKind.modLFOToPitch, GeneratorKind.vibratoLFOToPitch, GeneratorKind.modEnvelopeToPitch,
             GeneratorKind.filterCutoff, GeneratorKind.modLFOToFilterCutoff, GeneratorKind.modEnvelopeToFilterCutoff,
             GeneratorKind.modLFODelay, GeneratorKind.vibratoLFODelay,
             GeneratorKind.modEnvelopeDelay, GeneratorKind.modEnvelopeAttack, GeneratorKind.modEnvelopeHold,
             GeneratorKind.modEnvelopeDecay, GeneratorKind.modEnvelopeRelease,
             GeneratorKind.volumeDelay, GeneratorKind.volumeAttack, GeneratorKind.volumeHold,
             GeneratorKind.volumeDecay, GeneratorKind.volumeRelease:
            2
        case GeneratorKind.modLFOFrequency, GeneratorKind.vibratoLFOFrequency:
            4
        case 14, 18, 19, 20, GeneratorKind.instrument, 42, GeneratorKind.keyRange, GeneratorKind.velocityRange,
             GeneratorKind.keyNumber, GeneratorKind.velocity, 49, GeneratorKind.sampleID, GeneratorKind.sampleModes, 55,
             GeneratorKind.exclusiveClass, GeneratorKind.overridingRootKey:
            0
        default:
            kind < GeneratorKind.pitch ? 1 : 0
        }
    }

    /// The offset a SoundFont NRPN's 14-bit data entry sets (FluidSynth's `fluid_gen_scale_nrpn`).
    /// - Thread: any.
    static func nrpnValue(_ kind: Int, data: Int) -> Float {
        Float(min(max(data - 8192, -8192), 8192)) * nrpnScale(kind)
    }
}
