import Glibc

/// The SoundFont voice filter: a two-pole resonant low-pass (FluidSynth's biquad), with
/// SF2's Q in centibels over a non-resonant filter and the DC gain lowered by 1/√Q.
/// Bypassed while the cutoff is at the top of the range (0.45 × the sample rate) with no
/// resonance, where it would pass the audible band unchanged but for its gain: bypassed,
/// it still applies the gain (+1.5 dB at Q 0, as FluidSynth's filter always does). Transposed direct form II, so the same
/// state serves the one-voice path and the four-voice lanes (`SoundFontVoiceLanes`).
///
/// - Thread: render (a plain value inside a voice).
struct ResonantLowPass {
    private(set) var isBypassed = true
    private var qLinear: Float = 0.707
    /// The DC gain 1/√Q, applied bypassed too.
    private(set) var gain: Float = 1
    private var hasResonance = false
    private var lastCutoff: Float = -1
    private var b02: Float = 0, b1: Float = 0, a1: Float = 0, a2: Float = 0
    /// The two state values of the transposed direct form II.
    var state1: Float = 0, state2: Float = 0

    /// Sets the resonance from SF2's `initialFilterQ` (centibels, 0…960).
    mutating func setQ(centibels: Float) {
        let decibels = min(max(centibels, 0), 960) / 10 - 3.01
        qLinear = exp2Fast(decibels * (3.321_928_1 / 20))
        gain = 1 / qLinear.squareRoot()
        hasResonance = centibels > 0
        lastCutoff = -1
    }

    /// Sets the cutoff (Hz) for the next frames; coefficients change only when it moves.
    mutating func setCutoff(_ hertz: Float, sampleRate: Float) {
        let ceiling = 0.45 * sampleRate
        let cutoff = min(max(hertz, 5), ceiling)
        let bypass = cutoff >= ceiling && !hasResonance
        if bypass != isBypassed {
            isBypassed = bypass
            state1 = 0
            state2 = 0
            lastCutoff = -1
        }
        guard !bypass, abs(cutoff - lastCutoff) > 0.01 else { return }
        lastCutoff = cutoff
        let omega = 2 * Float.pi * cutoff / sampleRate
        let sine = sinf(omega), cosine = cosf(omega)
        let alpha = sine / (2 * qLinear)
        let a0Inverse = 1 / (1 + alpha)
        a1 = -2 * cosine * a0Inverse
        a2 = (1 - alpha) * a0Inverse
        b1 = (1 - cosine) * a0Inverse * gain
        b02 = 0.5 * b1
    }

    /// Filters one frame.
    @inline(__always)
    mutating func process(_ input: Float) -> Float {
        let output = b02 * input + state1
        state1 = b1 * input - a1 * output + state2
        state2 = b02 * input - a2 * output
        return output
    }

    /// The coefficients (b0, b1, b2, a1, a2) as the lanes apply them: the gain alone when bypassed.
    var coefficients: (b0: Float, b1: Float, b2: Float, a1: Float, a2: Float) {
        isBypassed ? (gain, 0, 0, 0, 0) : (b02, b1, b02, a1, a2)
    }

    /// Sets a decayed state to exactly zero, so silence never reaches subnormal numbers
    /// (slow on x86); once per control tick, off the per-frame path.
    mutating func flushDenormals() {
        state1 = flushTiny(state1)
        state2 = flushTiny(state2)
    }
}
