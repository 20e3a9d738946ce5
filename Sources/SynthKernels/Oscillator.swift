/// Band-limited oscillators (PolyBLEP saw and pulse; sine; triangle) and white noise,
/// each adding `count` samples into a buffer. The waveform is chosen once per call.
///
/// Frame i's phase is computed directly as frac(phase + (i + 1)·dt) rather than by a
/// running sum, so the loops carry no dependency from one sample to the next and the
/// compiler vectorizes them. Saw and pulse add the naive waveform in that loop, then
/// correct only the few samples next to each discontinuity (`addBLEP`).
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
            for i in 0..<count {
                output[i] += level * sinCycle(wrappedPhase(p0, dt, i))
            }
        case .triangle:
            for i in 0..<count {
                var r = wrappedPhase(p0, dt, i) + 0.25
                r = r >= 1 ? r - 1 : r
                output[i] += level * (1 - 2 * abs(2 * r - 1))
            }
        case .saw:
            for i in 0..<count {
                output[i] += level * (2 * wrappedPhase(p0, dt, i) - 1)
            }
            addBLEP(scale: -level, offset: 0, phase: p0, increment: dt, into: output, count: count)
        case .square:
            for i in 0..<count {
                output[i] += wrappedPhase(p0, dt, i) < pulseWidth ? level : -level
            }
            addBLEP(scale: level, offset: 0, phase: p0, increment: dt, into: output, count: count)
            addBLEP(scale: -level, offset: pulseWidth, phase: p0, increment: dt, into: output, count: count)
        }
        phase = wrappedPhase(p0, dt, count - 1)
    }

    /// Adds `scale × polyBLEP(t)` to the samples around each discontinuity of a ramp that
    /// jumps where the phase crosses `offset` (mod 1); t is the phase relative to `offset`.
    /// With a `step`, frame i's scale is `scale + step·(i + 1)` (a waveform whose level ramps).
    /// Only frames next to a jump have a non-zero correction, so only those are visited:
    /// for each crossing, the frames just before and after it (one extra on each side
    /// guards against rounding; none is corrected twice).
    @inlinable @inline(__always)
    static func addBLEP(scale: Float, step: Float = 0, offset: Float, phase p0: Float, increment dt: Float,
                        into output: UnsafeMutablePointer<Float>, count: Int) {
        let invDt = 1 / dt
        let start = p0 - offset  // in (-1, 1)
        let last = start + dt * Float(count + 1)
        var next = 0  // first frame not yet corrected
        var crossing = start < 0 ? 0 : 1
        while Float(crossing) <= last {
            // First frame whose phase reaches `crossing`: i + 1 ≥ (crossing − start) / dt.
            let steps = (Float(crossing) - start) * invDt
            var first = Int(steps)
            if Float(first) < steps { first += 1 }
            for i in stride(from: max(first - 3, next, 0), to: min(first + 1, count), by: 1) {
                var t = wrappedPhase(p0, dt, i) - offset
                t = t < 0 ? t + 1 : t
                output[i] += (step == 0 ? scale : scale + step * Float(i + 1)) * polyBLEP(t, dt, invDt)
            }
            next = max(next, first + 1)
            crossing += 1
        }
    }

    /// The phase at frame `index` of a block that starts at `start` (the phase is advanced
    /// before each sample), in [0, 1). Exact enough for 0.1-cent pitch: the sum stays below 64.
    /// Wraps with float operations only (no trapping integer conversion), so it vectorizes.
    @inlinable @inline(__always)
    static func wrappedPhase(_ start: Float, _ dt: Float, _ index: Int) -> Float {
        let p = start + dt * Float(Int32(truncatingIfNeeded: index + 1))
        let fraction = p - roundToNearest(p)
        return fraction < 0 ? fraction + 1 : fraction
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
