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
            let invDt = 1 / dt, edge = 1 - 0.5 * invDt
            for i in frames(count) {
                output[Int(i)] += level * sawShape(centred: centredPhase(p0 - 0.5, dt, i), edge: edge, invDt: invDt)
            }
        case .square:
            let invDt = 1 / dt, edge = 1 - 0.5 * invDt, offset = 2 * pulseWidth - 1
            for i in frames(count) {
                output[Int(i)] += level * pulseShape(p0 - 0.5, dt, i, pulseWidth, offset, edge, invDt)
            }
        }
        phase = wrappedPhase(p0, dt, Int32(truncatingIfNeeded: count - 1))
    }

    /// The pulse of unit level at frame `index` (high while the phase is below
    /// `pulseWidth`), as the difference of two band-limited saws, the second `pulseWidth`
    /// behind: `offset` = 2·pulseWidth − 1 makes it ±1.
    @inlinable @inline(__always)
    static func pulseShape(_ startLessHalf: Float, _ dt: Float, _ index: Int32, _ pulseWidth: Float, _ offset: Float,
                           _ edge: Float, _ invDt: Float) -> Float {
        let p = startLessHalf + dt * Float(index &+ 1)
        let u = p - roundToNearest(p), behind = p - pulseWidth
        let v = behind - roundToNearest(behind)
        return sawShape(centred: v, edge: edge, invDt: invDt) - sawShape(centred: u, edge: edge, invDt: invDt) + offset
    }

    /// The phase at frame `index` of a block that starts at `startLessHalf` + ½ (as
    /// `wrappedPhase`) less one half, in [−½, ½]: saw and pulse read it, and it needs no
    /// comparison to wrap (the nearest whole number taken off).
    @inlinable @inline(__always)
    static func centredPhase(_ startLessHalf: Float, _ dt: Float, _ index: Int32) -> Float {
        let p = startLessHalf + dt * Float(index &+ 1)
        return p - roundToNearest(p)
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
}
