import CCPUFeatures

/// What the processor offers beyond baseline x86-64, asked once (compiled for the
/// baseline, so any processor may ask).
///
/// - Thread: any.
public enum ProcessorFeatures {
    /// Whether the processor has AVX2 and FMA and the kernel saves their registers: what
    /// `EightVoiceLanes` (module VoiceLanesAVX2) needs.
    public static let hasAVX2AndFMA = midihub_has_avx2_fma() != 0
}
