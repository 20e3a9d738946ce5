import SynthKernels

/// The synth's per-sample voice-group loop (`SynthKernels.LaneFields.run`) compiled for
/// AVX2: its eight lanes in one 256-bit register where the baseline build takes two. The
/// kernel is inlined here, so the function's name is this module's own
/// (scripts/check-avx2-module). Nothing here runs unless `ProcessorFeatures.hasAVX2AndFMA`
/// (`Synth.SynthLoops`).
///
/// - Thread: render.
public enum LaneFieldsAVX2 {
    /// `fields.run`.
    public static func run(_ fields: LaneFields, signal: UnsafeMutablePointer<Float>, columnStride: Int, range: Range<Int>,
                           mixLeft: UnsafeMutablePointer<SIMD8<Float>>, mixRight: UnsafeMutablePointer<SIMD8<Float>>) {
        #if arch(x86_64)
        fields.run(signal: signal, columnStride: columnStride, range: range, mixLeft: mixLeft, mixRight: mixRight)
        #else
        preconditionFailure("LaneFieldsAVX2 runs only where ProcessorFeatures.hasAVX2AndFMA (x86-64)")
        #endif
    }
}
