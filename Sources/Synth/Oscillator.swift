/// Band-limited oscillators (PolyBLEP saw and pulse; sine; triangle) and white noise,
/// each adding `count` samples into a buffer. The waveform is chosen once per call.
///
/// Frame i's phase is computed directly as frac(phase + (i + 1)·dt) rather than by a
/// running sum, and every correction is a select, not a branch, so the loops carry no
/// dependency from one sample to the next and the compiler vectorizes them.
///
/// - Thread: render.
enum Oscillator {
    @inline(__always)
    static func add(_ wave: Waveform, level: Float, phase: inout Float, increment dt: Float, pulseWidth: Float,
                    into output: UnsafeMutablePointer<Float>, count: Int) {
        let p0 = phase
        let invDt = 1 / dt
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
                let p = wrappedPhase(p0, dt, i)
                output[i] += level * (2 * p - 1 - polyBLEP(p, dt, invDt))
            }
        case .square:
            for i in 0..<count {
                let p = wrappedPhase(p0, dt, i)
                var q = p - pulseWidth
                q = q < 0 ? q + 1 : q
                let naive: Float = p < pulseWidth ? 1 : -1
                output[i] += level * (naive + polyBLEP(p, dt, invDt) - polyBLEP(q, dt, invDt))
            }
        }
        phase = wrappedPhase(p0, dt, count - 1)
    }

    /// The phase at frame `index` of a block that starts at `start` (the phase is advanced
    /// before each sample), in [0, 1). Exact enough for 0.1-cent pitch: the sum stays below 64.
    /// Wraps with float operations only (no trapping integer conversion), so it vectorizes.
    @inline(__always)
    static func wrappedPhase(_ start: Float, _ dt: Float, _ index: Int) -> Float {
        let p = start + dt * Float(Int32(truncatingIfNeeded: index + 1))
        let fraction = p - roundToNearest(p)
        return fraction < 0 ? fraction + 1 : fraction
    }

    /// White noise from a 32-bit linear congruential generator (deterministic per voice).
    @inline(__always)
    static func addNoise(level: Float, state: inout UInt32, into output: UnsafeMutablePointer<Float>, count: Int) {
        var s = state
        let scale = level * (1.0 / 2_147_483_648)
        for i in 0..<count {
            s = s &* 1_664_525 &+ 1_013_904_223
            output[i] += scale * Float(Int32(bitPattern: s))
        }
        state = s
    }
}
