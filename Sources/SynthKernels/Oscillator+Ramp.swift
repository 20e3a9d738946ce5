extension Oscillator {
    /// `add` with the level moving linearly from `start` to `end` over the `count` frames
    /// (frame i at `start + (end − start)·(i + 1)/count`): a knob that changes an oscillator's
    /// level, or its waveform (one ramps out as the other ramps in), does not click.
    /// - Thread: render.
    @inlinable @inline(__always)
    public static func addRamp(_ wave: Waveform, from start: Float, to end: Float, phase: inout Float, increment dt: Float,
                               pulseWidth: Float, into output: UnsafeMutablePointer<Float>, count: Int) {
        let p0 = phase
        let step = (end - start) / Float(max(count, 1))
        switch wave {
        case .sine:
            for i in frames(count) {
                output[Int(i)] += level(start, step, i) * sinCycle(wrappedPhase(p0, dt, i))
            }
        case .triangle:
            for i in frames(count) {
                var r = wrappedPhase(p0, dt, i) + 0.25
                r = r >= 1 ? r - 1 : r
                output[Int(i)] += level(start, step, i) * (1 - 2 * abs(2 * r - 1))
            }
        case .saw:
            let invDt = 1 / dt
            for i in frames(count) {
                let l = level(start, step, i), p = wrappedPhase(p0, dt, i)
                output[Int(i)] = output[Int(i)] + l * (2 * p - 1) + -l * polyBLEP(p, dt, invDt)
            }
        case .square:
            let invDt = 1 / dt
            for i in frames(count) {
                let l = level(start, step, i), p = wrappedPhase(p0, dt, i)
                output[Int(i)] = output[Int(i)] + (p < pulseWidth ? l : -l) + l * polyBLEP(p, dt, invDt)
                    + -l * polyBLEP(relativePhase(p, to: pulseWidth), dt, invDt)
            }
        }
        phase = wrappedPhase(p0, dt, Int32(truncatingIfNeeded: count - 1))
    }

    /// `addNoise` with the level moving linearly from `start` to `end` over the `count` frames.
    /// - Thread: render.
    @inlinable @inline(__always)
    public static func addNoiseRamp(from start: Float, to end: Float, state: inout UInt32,
                                    into output: UnsafeMutablePointer<Float>, count: Int) {
        var s = state
        let unit: Float = 1.0 / 2_147_483_648
        let step = (end - start) / Float(max(count, 1)) * unit
        let first = start * unit
        for i in frames(count) {
            s = s &* 1_664_525 &+ 1_013_904_223
            output[Int(i)] += level(first, step, i) * Float(Int32(bitPattern: s))
        }
        state = s
    }

    /// The level at frame `index` of a ramp from `start` by `step` a frame (after the step).
    @inlinable @inline(__always)
    static func level(_ start: Float, _ step: Float, _ index: Int32) -> Float {
        start + step * Float(index &+ 1)
    }
}
