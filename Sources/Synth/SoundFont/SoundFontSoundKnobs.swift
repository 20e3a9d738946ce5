import Glibc
import RenderCore

/// The soundfont instrument's sound knobs: offsets over every preset, turned into the
/// generators' own units (`SoundFontGeneratorOffsets`'s node row), the way FluidSynth's
/// `fluid_synth_set_gen` reaches them. At their defaults every preset sounds as it is.
///
/// - cutoff (semitones, −120…120): 100 cents each onto `initialFilterFc`; sounding voices follow, smoothed.
/// - resonance (dB, 0…96): 10 centibels each onto `initialFilterQ`; sounding voices follow, smoothed.
/// - attack, decay, release (×0.1…×10): the volume envelope's times scaled, as
///   1200·log2(scale) timecents onto its attack, decay and release generators; notes starting after.
/// - tuning (cents, −100…100): onto `fineTune`; sounding voices follow, smoothed.
/// - transpose (semitones, −24…24, whole): onto `coarseTune`; sounding voices move at once.
/// - reverb send, chorus send (%, 0…200): the send outputs scaled, smoothed per frame.
///
/// - Thread: render, but `init` on control (in `prepare`); `parameterInfos`, `timecents` any; the rest
///   render (plain values inside the node).
struct SoundFontSoundKnobs {
    /// Smoothed: cents, centibels, cents, and the two send factors.
    var cutoff = SmoothedValue(0), resonance = SmoothedValue(0), tuning = SmoothedValue(0)
    var reverbSend = SmoothedValue(1), chorusSend = SmoothedValue(1)

    /// Every knob at its default, ramps of `rampFrames` frames.
    /// - Thread: control.
    init(rampFrames: Int = 480) {
        cutoff.rampFrames = max(1, rampFrames)
        resonance.rampFrames = max(1, rampFrames)
        tuning.rampFrames = max(1, rampFrames)
        reverbSend.rampFrames = max(1, rampFrames)
        chorusSend.rampFrames = max(1, rampFrames)
    }

    /// Whether a generator offset a sounding voice reads (cutoff, resonance, tuning) is still moving.
    /// - Thread: render.
    var isRampingVoices: Bool { cutoff.isRamping || resonance.isRamping || tuning.isRamping }

    /// Timecents that scale an envelope time by `scale` (1200 a doubling).
    /// - Thread: any.
    static func timecents(scale: Float) -> Float { 1200 * log2(max(scale, 1e-6)) }

    /// The node's parameters from `firstID` on, in the order of `SoundFontNode.Parameter`.
    /// - Thread: any.
    static func parameterInfos(firstID: UInt32) -> [ParameterInfo] {
        let knobs: [(String, ClosedRange<Float>, Float, ParameterUnit)] = [
            ("cutoff", -120...120, 0, .semitones),
            ("resonance", 0...96, 0, .decibels),
            ("attack", 0.1...10, 1, .generic),
            ("decay", 0.1...10, 1, .generic),
            ("release", 0.1...10, 1, .generic),
            ("tuning", -100...100, 0, .generic),  // cents
            ("transpose", -24...24, 0, .semitones),
            ("reverb send", 0...200, 100, .percent),
            ("chorus send", 0...200, 100, .percent),
        ]
        return knobs.enumerated().map { index, knob in
            ParameterInfo(id: firstID + UInt32(index), name: knob.0, range: knob.1, defaultValue: knob.2, unit: knob.3)
        }
    }
}
