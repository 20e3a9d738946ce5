import SynthKernels

/// The synth's oscillators' loops (`SynthKernels.Oscillator`) compiled for AVX2 and FMA:
/// eight samples a vector where the baseline build has four. Each function is the kernel's
/// inlined into this module, so its name is this module's own (scripts/check-avx2-module).
/// Nothing here runs unless `ProcessorFeatures.hasAVX2AndFMA` (`Synth.SynthLoops`).
///
/// - Thread: render.
public enum OscillatorsAVX2 {
    /// `Oscillator.add`.
    public static func add(_ wave: Waveform, level: Float, phase: inout Float, increment dt: Float, pulseWidth: Float,
                           into output: UnsafeMutablePointer<Float>, count: Int) {
        #if arch(x86_64)
        Oscillator.add(wave, level: level, phase: &phase, increment: dt, pulseWidth: pulseWidth, into: output, count: count)
        #else
        preconditionFailure("OscillatorsAVX2 runs only where ProcessorFeatures.hasAVX2AndFMA (x86-64)")
        #endif
    }

    /// `Oscillator.addRamp`.
    public static func addRamp(_ wave: Waveform, from start: Float, to end: Float, phase: inout Float, increment dt: Float,
                               pulseWidth: Float, into output: UnsafeMutablePointer<Float>, count: Int) {
        #if arch(x86_64)
        Oscillator.addRamp(wave, from: start, to: end, phase: &phase, increment: dt, pulseWidth: pulseWidth,
                           into: output, count: count)
        #else
        preconditionFailure("OscillatorsAVX2 runs only where ProcessorFeatures.hasAVX2AndFMA (x86-64)")
        #endif
    }

    /// `Oscillator.addNoise`.
    public static func addNoise(from start: Float, to end: Float, state: inout UInt32,
                                into output: UnsafeMutablePointer<Float>, count: Int) {
        #if arch(x86_64)
        Oscillator.addNoise(from: start, to: end, state: &state, into: output, count: count)
        #else
        preconditionFailure("OscillatorsAVX2 runs only where ProcessorFeatures.hasAVX2AndFMA (x86-64)")
        #endif
    }
}
