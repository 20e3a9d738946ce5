/// Band-limited oscillators (PolyBLEP saw and pulse; sine; triangle) and white noise,
/// each adding `count` samples into a buffer. The waveform is chosen once per call, so
/// each inner loop is branch-light.
///
/// - Thread: render.
enum Oscillator {
    @inline(__always)
    static func add(_ wave: Waveform, level: Float, phase: inout Float, increment dt: Float, pulseWidth: Float,
                    into output: UnsafeMutablePointer<Float>, count: Int) {
        var p = phase
        let invDt = 1 / dt
        switch wave {
        case .sine:
            for i in 0..<count {
                p += dt
                p = p >= 1 ? p - 1 : p
                output[i] += level * sinCycle(p)
            }
        case .triangle:
            for i in 0..<count {
                p += dt
                p = p >= 1 ? p - 1 : p
                var r = p + 0.25
                r = r >= 1 ? r - 1 : r
                output[i] += level * (1 - 2 * abs(2 * r - 1))
            }
        case .saw:
            for i in 0..<count {
                p += dt
                p = p >= 1 ? p - 1 : p
                output[i] += level * (2 * p - 1 - polyBLEP(p, dt, invDt))
            }
        case .square:
            for i in 0..<count {
                p += dt
                p = p >= 1 ? p - 1 : p
                var q = p - pulseWidth
                q = q < 0 ? q + 1 : q
                let naive: Float = p < pulseWidth ? 1 : -1
                output[i] += level * (naive + polyBLEP(p, dt, invDt) - polyBLEP(q, dt, invDt))
            }
        }
        phase = p
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
