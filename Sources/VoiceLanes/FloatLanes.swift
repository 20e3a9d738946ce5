#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Four `Float` lanes whose arithmetic is one vector instruction per operator. Swift's
/// `SIMD4` operators are element-wise loops the optimizer has to re-vectorize; in the
/// voice lanes' long loop it split them into two-lane pieces joined by shuffles (about
/// twice the instructions). On x86-64 these call SSE directly; elsewhere they are the
/// `SIMD4` operators.
///
/// - Thread: any (a plain value).
@frozen public struct FloatLanes {
    public var vector: SIMD4<Float>

    @inlinable @inline(__always) public init(_ vector: SIMD4<Float>) { self.vector = vector }

    @inlinable @inline(__always) public static func + (a: FloatLanes, b: FloatLanes) -> FloatLanes {
        #if arch(x86_64)
        FloatLanes(_mm_add_ps(a.vector, b.vector))
        #else
        FloatLanes(a.vector + b.vector)
        #endif
    }

    @inlinable @inline(__always) public static func - (a: FloatLanes, b: FloatLanes) -> FloatLanes {
        #if arch(x86_64)
        FloatLanes(_mm_sub_ps(a.vector, b.vector))
        #else
        FloatLanes(a.vector - b.vector)
        #endif
    }

    @inlinable @inline(__always) public static func * (a: FloatLanes, b: FloatLanes) -> FloatLanes {
        #if arch(x86_64)
        FloatLanes(_mm_mul_ps(a.vector, b.vector))
        #else
        FloatLanes(a.vector * b.vector)
        #endif
    }

    @inlinable @inline(__always) public static func * (a: Float, b: FloatLanes) -> FloatLanes {
        FloatLanes(SIMD4(repeating: a)) * b
    }

    @inlinable @inline(__always) public static func += (a: inout FloatLanes, b: FloatLanes) { a = a + b }

    /// Four values from `address` (any alignment).
    @inlinable @inline(__always) public init(loading address: UnsafePointer<Float>) {
        vector = UnsafeRawPointer(address).loadUnaligned(as: SIMD4<Float>.self)
    }

    /// Stores the four values at `address` (any alignment).
    @inlinable @inline(__always) public func store(to address: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(address).storeBytes(of: vector, as: SIMD4<Float>.self)
    }

    /// Four rows of four turned into four columns: the result's k-th vector holds element k
    /// of `r0` … `r3` (four frames of four voices, or combs, turned into four frames of each).
    @inlinable @inline(__always)
    public static func transposed(_ r0: SIMD4<Float>, _ r1: SIMD4<Float>, _ r2: SIMD4<Float>, _ r3: SIMD4<Float>)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        #if arch(x86_64)
        let t0 = _mm_unpacklo_ps(r0, r1), t1 = _mm_unpacklo_ps(r2, r3)
        let t2 = _mm_unpackhi_ps(r0, r1), t3 = _mm_unpackhi_ps(r2, r3)
        return (_mm_movelh_ps(t0, t1), _mm_movehl_ps(t1, t0), _mm_movelh_ps(t2, t3), _mm_movehl_ps(t3, t2))
        #else
        return (SIMD4(r0[0], r1[0], r2[0], r3[0]), SIMD4(r0[1], r1[1], r2[1], r3[1]),
                SIMD4(r0[2], r1[2], r2[2], r3[2]), SIMD4(r0[3], r1[3], r2[3], r3[3]))
        #endif
    }
}

/// Four sample positions in fixed point, `fractionBits` bits of fraction (as FluidSynth's
/// phase): the fraction comes out with a mask, in one vector (the whole frames the lanes
/// read are kept in integer registers beside it, `SoundFontVoiceLanes`). Only the fraction
/// is read, so the whole part may wrap around (a long span, a loop's wrap) at no cost.
///
/// - Thread: any (a plain value).
@frozen public struct PhaseLanes {
    public static let fractionBits: Int32 = 20
    public static let one = Double(1 << fractionBits)
    public var bits: SIMD4<Int32>

    /// Positions (or increments) in frames, each from 0 to below 2^11.
    @inlinable @inline(__always) public init(_ a: Double, _ b: Double, _ c: Double, _ d: Double) {
        bits = SIMD4(Self.fixed(a), Self.fixed(b), Self.fixed(c), Self.fixed(d))
    }

    /// Rounded by adding a half (the values are not negative): `rounded()` is a libm call on baseline x86-64.
    @inlinable @inline(__always) static func fixed(_ frames: Double) -> Int32 { Int32(frames * one + 0.5) }

    /// The fraction of each lane, 0 ..< 1.
    @inlinable @inline(__always) public var fraction: FloatLanes {
        let mask = SIMD4<Int32>(repeating: 1 << Self.fractionBits - 1)
        #if arch(x86_64)
        let masked = _mm_and_si128(unsafeBitCast(bits, to: SIMD2<Int64>.self), unsafeBitCast(mask, to: SIMD2<Int64>.self))
        return FloatLanes(_mm_mul_ps(_mm_cvtepi32_ps(masked), _mm_set1_ps(Float(1 / Self.one))))
        #else
        return FloatLanes(SIMD4<Float>(bits & mask) * Float(1 / Self.one))
        #endif
    }

    @inlinable @inline(__always) public mutating func advance(by increment: PhaseLanes) {
        #if arch(x86_64)
        bits = unsafeBitCast(_mm_add_epi32(unsafeBitCast(bits, to: SIMD2<Int64>.self),
                                           unsafeBitCast(increment.bits, to: SIMD2<Int64>.self)), to: SIMD4<Int32>.self)
        #else
        bits &+= increment.bits
        #endif
    }
}

extension FloatLanes {
    /// The Catmull-Rom cubic through taps `ym1` … `y2` at fraction `x`, four lanes at once:
    /// `SampleMath.catmullRom`'s form (the one-voice path's).
    @inlinable @inline(__always)
    public static func cubic(_ ym1: FloatLanes, _ y0: FloatLanes, _ y1: FloatLanes, _ y2: FloatLanes,
                             _ x: FloatLanes) -> FloatLanes {
        let slope = 0.5 * (y1 - ym1), step = y0 - y1
        let v = slope + step
        let cubed = v + step + 0.5 * (y2 - y0)
        let squared = v + cubed
        return ((cubed * x - squared) * x + slope) * x + y0
    }
}
