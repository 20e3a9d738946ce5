/// The SF2.01 generator operators (section 8.1.2) the soundfont instrument uses, by number,
/// plus `pitch` (59, unused by the spec): the voice's pitch in cents, which the default
/// pitch-wheel modulator moves (as FluidSynth's `GEN_PITCH`).
///
/// - Thread: any (plain values).
enum GeneratorKind {
    static let startAddressOffset = 0, endAddressOffset = 1, startLoopOffset = 2, endLoopOffset = 3
    static let startAddressCoarseOffset = 4, modLFOToPitch = 5, vibratoLFOToPitch = 6, modEnvelopeToPitch = 7
    static let filterCutoff = 8, filterQ = 9, modLFOToFilterCutoff = 10, modEnvelopeToFilterCutoff = 11
    static let endAddressCoarseOffset = 12, modLFOToVolume = 13, chorusSend = 15, reverbSend = 16, pan = 17
    static let modLFODelay = 21, modLFOFrequency = 22, vibratoLFODelay = 23, vibratoLFOFrequency = 24
    static let modEnvelopeDelay = 25, modEnvelopeAttack = 26, modEnvelopeHold = 27, modEnvelopeDecay = 28
    static let modEnvelopeSustain = 29, modEnvelopeRelease = 30, keyToModEnvelopeHold = 31, keyToModEnvelopeDecay = 32
    static let volumeDelay = 33, volumeAttack = 34, volumeHold = 35, volumeDecay = 36, volumeSustain = 37
    static let volumeRelease = 38, keyToVolumeHold = 39, keyToVolumeDecay = 40
    static let instrument = 41, keyRange = 43, velocityRange = 44, startLoopCoarseOffset = 45
    static let keyNumber = 46, velocity = 47, attenuation = 48, endLoopCoarseOffset = 50
    static let coarseTune = 51, fineTune = 52, sampleID = 53, sampleModes = 54, scaleTuning = 56
    static let exclusiveClass = 57, overridingRootKey = 58, pitch = 59

    /// Slots in a generator array (operators 0…59, rounded up).
    static let count = 64

    /// The SF2.01 default amount of each generator (section 8.1.3); zero where not listed.
    static let defaults: [Float] = {
        var values = [Float](repeating: 0, count: count)
        values[filterCutoff] = 13_500
        for timecents in [modLFODelay, vibratoLFODelay, modEnvelopeDelay, modEnvelopeAttack, modEnvelopeHold,
                          modEnvelopeDecay, modEnvelopeRelease, volumeDelay, volumeAttack, volumeHold, volumeDecay,
                          volumeRelease] {
            values[timecents] = -12_000
        }
        values[keyNumber] = -1
        values[velocity] = -1
        values[scaleTuning] = 100
        values[overridingRootKey] = -1
        return values
    }()

    /// Whether a preset zone may offset this generator: not the sample addresses, key or
    /// velocity overrides, sample modes, exclusive class or root key (section 8.5), and not
    /// the structural ones (instrument, ranges, sample).
    static func presetMayOffset(_ kind: Int) -> Bool {
        switch kind {
        case startAddressOffset, endAddressOffset, startLoopOffset, endLoopOffset, startAddressCoarseOffset,
             endAddressCoarseOffset, startLoopCoarseOffset, endLoopCoarseOffset, keyNumber, velocity, sampleModes,
             exclusiveClass, overridingRootKey, instrument, keyRange, velocityRange, sampleID:
            false
        default:
            kind < pitch
        }
    }

    /// Whether an instrument zone may set this generator (everything but the structural ones).
    static func instrumentMaySet(_ kind: Int) -> Bool {
        kind < pitch && kind != instrument && kind != keyRange && kind != velocityRange && kind != sampleID
    }

    /// The EMU8000/10K hardware scales every stored initial attenuation by 0.4; fonts are
    /// voiced for it, and FluidSynth applies the same factor when it reads them.
    static let attenuationScale: Float = 0.4
}
