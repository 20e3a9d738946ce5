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
            let invDt = 1 / dt, edge = 1 - 0.5 * invDt
            for i in frames(count) {
                output[Int(i)] += level(start, step, i) * sawShape(centred: centredPhase(p0 - 0.5, dt, i), edge: edge, invDt: invDt)
            }
        case .square:
            let invDt = 1 / dt, edge = 1 - 0.5 * invDt, offset = 2 * pulseWidth - 1
            for i in frames(count) {
                output[Int(i)] += level(start, step, i) * pulseShape(p0 - 0.5, dt, i, pulseWidth, offset, edge, invDt)
            }
        }
        phase = wrappedPhase(p0, dt, Int32(truncatingIfNeeded: count - 1))
    }

    /// White noise from a 32-bit linear congruential generator (deterministic per voice),
    /// its level moving linearly from `start` to `end` over the `count` frames (equal for a
    /// steady level). The generator runs eight steps at once — s(n + 8) = a⁸·s(n) + c₈
    /// (mod 2³²), eight consecutive states a vector — so the numbers are the serial
    /// generator's, in its order.
    /// - Thread: render.
    @inlinable @inline(__always)
    public static func addNoise(from start: Float, to end: Float, state: inout UInt32,
                                into output: UnsafeMutablePointer<Float>, count: Int) {
        let (multiplier, increment): (UInt32, UInt32) = (1_664_525, 1_013_904_223)
        let unit: Float = 1.0 / 2_147_483_648
        let step = (end - start) / Float(max(count, 1)) * unit
        let first = start * unit
        var s = state, done = 0
        if count >= 8 {
            var states = SIMD8<UInt32>(), multiplier8: UInt32 = 1, increment8: UInt32 = 0
            for lane in 0..<8 {
                s = s &* multiplier &+ increment
                states[lane] = s
                (multiplier8, increment8) = (multiplier8 &* multiplier, increment8 &* multiplier &+ increment)
            }
            let frameNumbers = SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8)
            while true {
                let levels = first + step * (frameNumbers + Float(done))
                let noise = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: states))
                let frames = UnsafeMutableRawPointer(output + done)
                frames.storeBytes(of: frames.loadUnaligned(as: SIMD8<Float>.self) + levels * noise, as: SIMD8<Float>.self)
                s = states[7]
                done += 8
                guard done + 8 <= count else { break }
                states = states &* multiplier8 &+ increment8
            }
        }
        for i in Int32(truncatingIfNeeded: done)..<Int32(truncatingIfNeeded: count) {
            s = s &* multiplier &+ increment
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
