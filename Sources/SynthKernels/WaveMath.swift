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

/// The polynomial band-limited step correction (PolyBLEP) for a unit jump at the wrap of
/// the phase, read in centred phase (`Oscillator.centredPhase`: the jump at ±½), the
/// phase moving `1/invDt` a frame, `edge` = 1 − ½·invDt: −(1 − d/dt)² just after the jump
/// and (1 − d/dt)² just before it, d the distance to it, 0 farther. Written with no
/// comparison but one clamp (the distance from |u|, the sign copied from u), so the loops
/// that use it vectorize without masks: the oscillators' loops are half of the synth's time.
@inlinable @inline(__always)
func polyBLEP(centred u: Float, edge: Float, invDt: Float) -> Float {
    let a = max(edge + abs(u) * invDt, 0)
    return Float(signOf: u, magnitudeOf: a * a)
}

/// A band-limited saw of unit level at centred phase `u`: the ramp 2u and its jump corrected.
@inlinable @inline(__always)
func sawShape(centred u: Float, edge: Float, invDt: Float) -> Float {
    2 * u - polyBLEP(centred: u, edge: edge, invDt: invDt)
}

/// The nearest whole number to x for |x| < 2²², with float operations only (adding and
/// removing 1.5·2²³ drops the fraction, ties to even), so loops using it vectorize.
@inlinable @inline(__always)
func roundToNearest(_ x: Float) -> Float {
    (x + 12_582_912) - 12_582_912
}
