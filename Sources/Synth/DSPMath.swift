import VoiceLanes

// Small, deterministic approximations used in the render loops (no libm calls per sample).
// - Thread: any (pure).

/// Frequency in hertz of a (fractional) MIDI note number, A4 = 69 = 440 Hz.
@inline(__always)
func noteToHertz(_ note: Float) -> Float {
    440 * exp2Fast((note - 69) * (1 / 12))
}

/// 2^x, accurate to about 3e-7 relative for |x| ≤ 60.
@inline(__always)
func exp2Fast(_ x: Float) -> Float {
    let clamped = min(max(x, -60), 60)
    // Round to nearest by truncating a positive value (no libm call).
    let whole = Float(Int32(clamped + 64.5) - 64)
    let f = clamped - whole
    // Taylor series of e^(f·ln 2) on [-0.5, 0.5].
    let p = 1 + f * (0.693_147_18 + f * (0.240_226_5 + f * (0.055_504_11 + f * (0.009_618_13
        + f * (0.001_333_55 + f * 0.000_154_03)))))
    return p * Float(bitPattern: UInt32(Int32(whole) + 127) << 23)
}

/// tan(x) for x in [0, 1.45] via sin/cos series (relative error < 1e-5), lane by lane: a
/// voice group's filters take their eleven divisions eight voices at a time.
@inline(__always)
func tanSmall<Lanes: SIMD>(_ x: Lanes) -> Lanes where Lanes.Scalar == Float {
    let x2 = x * x
    var s: Lanes = 1 - x2 / 110
    s = 1 - x2 / 72 * s
    s = 1 - x2 / 42 * s
    s = 1 - x2 / 20 * s
    s = x * (1 - x2 / 6 * s)
    var c: Lanes = 1 - x2 / 132
    c = 1 - x2 / 90 * c
    c = 1 - x2 / 56 * c
    c = 1 - x2 / 30 * c
    c = 1 - x2 / 12 * c
    c = 1 - x2 / 2 * c
    return s / c
}

/// `tanSmall` of one value.
@inline(__always)
func tanSmall(_ x: Float) -> Float {
    tanSmall(SIMD4(repeating: x))[0]
}

/// x raised to a non-negative integer power, by squaring (control-rate use).
@inline(__always)
func power(_ x: Float, _ n: Int) -> Float {
    var result: Float = 1, base = x, e = n
    while e > 0 {
        if e & 1 != 0 { result *= base }
        base *= base
        e >>= 1
    }
    return result
}

/// Flushes values too small to matter to exactly zero, so feedback paths never reach
/// subnormal numbers (which are very slow on x86).
@inline(__always)
func flushTiny(_ x: Float) -> Float {
    (x + 1e-18) - 1e-18
}

/// `flushTiny` of four values at once.
@inline(__always)
func flushTiny(_ x: FloatLanes) -> FloatLanes {
    let tiny = FloatLanes(SIMD4(repeating: 1e-18))
    return (x + tiny) - tiny
}

/// Linear gain of a level in decibels.
@inline(__always)
func decibelsToGain(_ dB: Float) -> Float {
    exp2Fast(dB * (3.321_928_1 / 20))
}

/// log₂(x) for a positive normal x, accurate to about 1e-7 absolute.
@inline(__always)
func log2Fast(_ x: Float) -> Float {
    let bits = x.bitPattern
    // x = m · 2^e with m in [√½, √2), so the series below converges fast.
    let upper = bits & 0x007f_ffff > 0x0035_04f3
    let exponent = Float(Int32(bitPattern: bits >> 23) - (upper ? 126 : 127))
    let m = Float(bitPattern: (bits & 0x007f_ffff) | (upper ? 0x3f00_0000 : 0x3f80_0000))
    // log₂ m = (2 / ln 2) · atanh(u), u = (m − 1) / (m + 1), |u| < 0.172 (to u⁹, error < 1e-9).
    let u = (m - 1) / (m + 1), u2 = u * u
    return exponent + u * (2.885_390_1 + u2 * (0.961_796_7 + u2 * (0.577_078_0 + u2 * (0.412_198_6 + u2 * 0.320_598_9))))
}

/// Level in decibels of a positive normal linear gain.
@inline(__always)
func gainToDecibels(_ gain: Float) -> Float {
    log2Fast(gain) * (20 / 3.321_928_1)
}

/// The per-frame multiplier of an exponential segment that shrinks its distance to the
/// target 1000-fold (−60 dB) in `frames` frames.
func sixtyDecibelCoefficient(frames: Float) -> Float {
    frames < 1 ? 0 : exp2Fast(-9.965_784 / frames)
}
