// The approximations the oscillators' loops use (no libm calls per sample), inlinable so
// that each build of the loops (`Oscillator`) has its own; the rest of the synth uses them
// at control rate too.

/// sin(π/2 · y) for y in [-1, 1] (Taylor to y⁹, error < 4e-6).
@inlinable @inline(__always)
public func sinQuarter(_ y: Float) -> Float {
    let y2 = y * y
    return y * (1.570_796_3 + y2 * (-0.645_964_1 + y2 * (0.079_692_6 + y2 * (-0.004_681_75 + y2 * 0.000_160_44))))
}

/// sin(2π · phase) for phase in [0, 1).
@inlinable @inline(__always)
public func sinCycle(_ phase: Float) -> Float {
    var r = phase + 0.25
    r = r >= 1 ? r - 1 : r
    return sinQuarter(1 - 2 * abs(2 * r - 1))
}

/// The polynomial band-limited step correction for a discontinuity at phase 0
/// (branch-free: both polynomials are computed and selected).
@inlinable @inline(__always)
func polyBLEP(_ t: Float, _ dt: Float, _ invDt: Float) -> Float {
    let x = t * invDt
    let y = (t - 1) * invDt
    let rising = x + x - x * x - 1
    let falling = y * y + y + y + 1
    return t < dt ? rising : (t > 1 - dt ? falling : 0)
}

/// The nearest integer to x for 0 ≤ x < 2²², with float operations only (adding and
/// removing 2²³ drops the fraction), so loops using it vectorize.
@inlinable @inline(__always)
func roundToNearest(_ x: Float) -> Float {
    (x + 8_388_608) - 8_388_608
}
