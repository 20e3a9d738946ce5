import SynthKernels
import VoiceLanes
import VoiceLanesAVX2

/// The build of the synth's per-sample loops a node runs: the baseline one (`Oscillator`
/// and `LaneFields.run`, SSE, inlined here) or, where the processor has AVX2 and FMA, the
/// one compiled for them (`OscillatorsAVX2`, `LaneFieldsAVX2`). The choice is made once,
/// when the node is made, and travels with the voices' render context, so the loops never
/// read `ProcessorFeatures`' global; each call is one voice's (or voice group's) period.
///
/// - Thread: render (made on any).
struct SynthLoops {
    let usesAVX2: Bool

    init(usesAVX2: Bool = ProcessorFeatures.hasAVX2AndFMA) {
        self.usesAVX2 = usesAVX2
    }

    /// `Oscillator.add` in the chosen build.
    @inline(__always)
    func add(_ wave: Waveform, level: Float, phase: inout Float, increment dt: Float, pulseWidth: Float,
             into output: UnsafeMutablePointer<Float>, count: Int) {
        if usesAVX2 {
            OscillatorsAVX2.add(wave, level: level, phase: &phase, increment: dt, pulseWidth: pulseWidth, into: output, count: count)
        } else {
            Oscillator.add(wave, level: level, phase: &phase, increment: dt, pulseWidth: pulseWidth, into: output, count: count)
        }
    }

    /// `Oscillator.addRamp` in the chosen build.
    @inline(__always)
    func addRamp(_ wave: Waveform, from start: Float, to end: Float, phase: inout Float, increment dt: Float,
                 pulseWidth: Float, into output: UnsafeMutablePointer<Float>, count: Int) {
        if usesAVX2 {
            OscillatorsAVX2.addRamp(wave, from: start, to: end, phase: &phase, increment: dt, pulseWidth: pulseWidth,
                                    into: output, count: count)
        } else {
            Oscillator.addRamp(wave, from: start, to: end, phase: &phase, increment: dt, pulseWidth: pulseWidth,
                               into: output, count: count)
        }
    }

    /// `Oscillator.addNoise` in the chosen build.
    @inline(__always)
    func addNoise(from start: Float, to end: Float, state: inout UInt32, into output: UnsafeMutablePointer<Float>, count: Int) {
        if usesAVX2 {
            OscillatorsAVX2.addNoise(from: start, to: end, state: &state, into: output, count: count)
        } else {
            Oscillator.addNoise(from: start, to: end, state: &state, into: output, count: count)
        }
    }

    /// `fields.run` in the chosen build.
    @inline(__always)
    func run(_ fields: LaneFields, signal: UnsafeMutablePointer<Float>, columnStride: Int, range: Range<Int>,
             mixLeft: UnsafeMutablePointer<SIMD8<Float>>, mixRight: UnsafeMutablePointer<SIMD8<Float>>) {
        if usesAVX2 {
            LaneFieldsAVX2.run(fields, signal: signal, columnStride: columnStride, range: range, mixLeft: mixLeft, mixRight: mixRight)
        } else {
            fields.run(signal: signal, columnStride: columnStride, range: range, mixLeft: mixLeft, mixRight: mixRight)
        }
    }
}
