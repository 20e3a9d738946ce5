import SynthKernels
import Testing
import VoiceLanes
@testable import Synth

/// The AVX2 build of the synth's per-sample loops (`SynthLoops`) computes what the
/// baseline build does, bit for bit: the same operations on wider vectors (Swift fuses no
/// multiply-adds), so where the processor runs one or the other a render is the same.
@Suite(.enabled(if: ProcessorFeatures.hasAVX2AndFMA, "the AVX2 build runs only on AVX2 and FMA"))
struct SynthLoopsTests {
    static let baseline = SynthLoops(usesAVX2: false), avx2 = SynthLoops(usesAVX2: true)
    /// A period of odd length (vector loops and their remainders), at a pitch whose
    /// saw and pulse jump inside it.
    static let frames = 61, increment: Float = 0.0371

    /// `frames` frames of `loops` adding `wave` on top of a ramp, steady and ramping.
    static func oscillator(_ loops: SynthLoops, _ wave: Waveform) -> [Float] {
        var output = (0..<2 * frames).map { Float($0) * 0.01 }
        var phase: Float = 0.93
        output.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            loops.add(wave, level: 0.7, phase: &phase, increment: increment, pulseWidth: 0.3, into: base, count: frames)
            loops.addRamp(wave, from: 0.7, to: 0.2, phase: &phase, increment: increment, pulseWidth: 0.3,
                          into: base + frames, count: frames)
        }
        return output + [phase]
    }

    @Test(arguments: SynthKernels.Waveform.allCases)
    func oscillatorsAreTheBaselines(wave: SynthKernels.Waveform) {
        #expect(Self.oscillator(Self.avx2, wave) == Self.oscillator(Self.baseline, wave))
    }

    /// A voice group's fields and signals made up, run by `loops`: the mix and the fields after.
    static func group(_ loops: SynthLoops) -> [Float] {
        let columnStride = 64
        let fields = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: LaneField.count)
        let signal = UnsafeMutablePointer<Float>.allocate(capacity: 8 * columnStride)
        let mix = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 2 * columnStride)
        defer { fields.deallocate(); signal.deallocate(); mix.deallocate() }
        for field in 0..<LaneField.count {
            fields[field] = SIMD8((0..<8).map { lane in Float((field * 8 + lane) % 13) * 0.07 - 0.3 })
        }
        for i in 0..<8 * columnStride { signal[i] = sinCycle(Float(i % 97) / 97) }
        mix.initialize(repeating: SIMD8(repeating: 0.1), count: 2 * columnStride)
        loops.run(LaneFields(base: fields), signal: signal, columnStride: columnStride, range: 3..<columnStride,
                  mixLeft: mix, mixRight: mix + columnStride)
        return (0..<2 * columnStride).flatMap { i in (0..<8).map { mix[i][$0] } }
            + (0..<LaneField.count).flatMap { field in (0..<8).map { fields[field][$0] } }
    }

    @Test func voiceGroupLoopIsTheBaselines() {
        #expect(Self.group(Self.avx2) == Self.group(Self.baseline))
    }
}
