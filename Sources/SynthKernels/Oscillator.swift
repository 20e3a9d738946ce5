/// Band-limited oscillators (PolyBLEP saw and pulse; sine; triangle) and white noise,
/// each adding `count` samples into a buffer. The waveform is chosen once per call.
///
/// Frame i's phase is computed directly as frac(phase + (i + 1)·dt) rather than by a
/// running sum, so the loops carry no dependency from one sample to the next and the
/// compiler vectorizes them. Saw and pulse add the naive waveform and its PolyBLEP
/// corrections in the same loop: the correction is zero away from a jump and is computed
/// (branch-free) for every frame, which in vectors costs less than finding the frames next
/// to each jump and correcting them one by one.
///
/// Public and inlinable so that two builds of them exist: the baseline one, inlined into
/// `Synth`, and the one compiled for AVX2 and FMA (`VoiceLanesAVX2.OscillatorsAVX2`).
///
/// - Thread: render.
public enum Oscillator {
    @inlinable @inline(__always)
    public static func add(_ wave: Waveform, level: Float, phase: inout Float, increment dt: Float, pulseWidth: Float,
                           into output: UnsafeMutablePointer<Float>, count: Int) {
        let p0 = phase
        switch wave {
        case .sine:
            for i in frames(count) {
                output[Int(i)] += level * sinCycle(wrappedPhase(p0, dt, i))
            }
        case .triangle:
            for i in frames(count) {
                var r = wrappedPhase(p0, dt, i) + 0.25
                r = r >= 1 ? r - 1 : r
                output[Int(i)] += level * (1 - 2 * abs(2 * r - 1))
            }
        case .saw:
            let invDt = 1 / dt
            for i in frames(count) {
                let p = wrappedPhase(p0, dt, i)
                output[Int(i)] = output[Int(i)] + level * (2 * p - 1) + -level * polyBLEP(p, dt, invDt)
            }
        case .square:
            let invDt = 1 / dt
            for i in frames(count) {
                let p = wrappedPhase(p0, dt, i)
                output[Int(i)] = output[Int(i)] + (p < pulseWidth ? level : -level) + level * polyBLEP(p, dt, invDt)
                    + -level * polyBLEP(relativePhase(p, to: pulseWidth), dt, invDt)
            }
        }
        phase = wrappedPhase(p0, dt, Int32(truncatingIfNeeded: count - 1))
    }

    /// `phase` relative to `offset` (both in [0, 1)), in [0, 1): the pulse's falling edge
    /// is at `offset`.
    @inlinable @inline(__always)
    static func relativePhase(_ phase: Float, to offset: Float) -> Float {
        let t = phase - offset
        return t < 0 ? t + 1 : t
    }

    /// The phase at frame `index` of a block that starts at `start` (the phase is advanced
    /// before each sample), in [0, 1). Exact enough for 0.1-cent pitch: the sum stays below 64.
    /// Wraps with float operations only (no trapping integer conversion), so it vectorizes.
    @inlinable @inline(__always)
    static func wrappedPhase(_ start: Float, _ dt: Float, _ index: Int32) -> Float {
        let p = start + dt * Float(index &+ 1)
        let fraction = p - roundToNearest(p)
        return fraction < 0 ? fraction + 1 : fraction
    }

    /// The frames of a block of `count` (at most a control period) as 32-bit indices: their
    /// conversions to `Float` are one vector instruction, where 64-bit ones take a repack.
    @inlinable @inline(__always)
    static func frames(_ count: Int) -> Range<Int32> {
        0..<Int32(truncatingIfNeeded: count)
    }

    /// White noise from a 32-bit linear congruential generator (deterministic per voice).
    @inlinable @inline(__always)
    public static func addNoise(level: Float, state: inout UInt32, into output: UnsafeMutablePointer<Float>, count: Int) {
        var s = state
        let scale = level * (1.0 / 2_147_483_648)
        for i in 0..<count {
            s = s &* 1_664_525 &+ 1_013_904_223
            output[i] += scale * Float(Int32(bitPattern: s))
        }
        state = s
    }
}
