#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Loops over samples that every node and the plan run each block, four samples at a time
/// (Swift leaves these loops scalar when it cannot prove the two pointers apart).
///
/// - Thread: render; allocation-free.
public enum SampleMath {
    /// The Catmull-Rom cubic through `ym1` … `y2` at `x` (0…1 between `y0` and `y1`):
    /// c1 = (y1 − ym1) / 2, c3 = (y2 − ym1) / 2 + 3 (y0 − y1) / 2 and −c2 = c1 + (y0 − y1) + c3,
    /// in 15 operations (Laurent de Soras' form). The SoundFont voices' vector lanes run the
    /// same form four and eight values at a time (`FloatLanes.cubic`).
    @inlinable @inline(__always)
    public static func catmullRom(_ ym1: Float, _ y0: Float, _ y1: Float, _ y2: Float, at x: Float) -> Float {
        let slope = 0.5 * (y1 - ym1), step = y0 - y1
        let v = slope + step
        let cubed = v + step + 0.5 * (y2 - y0)
        return ((cubed * x - (v + cubed)) * x + slope) * x + y0
    }

    /// `target[i] += source[i]` for `frames` samples.
    @inlinable
    public static func add(_ source: UnsafePointer<Float>, into target: UnsafeMutablePointer<Float>, frames: Int) {
        var i = 0
        while i &+ 4 <= frames {
            store(load(target + i) + load(source + i), at: target + i)
            i &+= 4
        }
        while i < frames {
            target[i] += source[i]
            i &+= 1
        }
    }

    /// `samples[i] *= gain` for `frames` samples.
    @inlinable
    public static func scale(_ samples: UnsafeMutablePointer<Float>, by gain: Float, frames: Int) {
        var i = 0
        while i &+ 4 <= frames {
            store(load(samples + i) * gain, at: samples + i)
            i &+= 4
        }
        while i < frames {
            samples[i] *= gain
            i &+= 1
        }
    }

    /// The largest |sample| of `frames` samples.
    @inlinable
    public static func peak(_ samples: UnsafePointer<Float>, frames: Int) -> Float {
        var peaks = SIMD4<Float>.zero
        var i = 0
        while i &+ 4 <= frames {
            peaks = larger(peaks, magnitudes(load(samples + i)))
            i &+= 4
        }
        var peak = max(max(peaks[0], peaks[1]), max(peaks[2], peaks[3]))
        while i < frames {
            peak = max(peak, abs(samples[i]))
            i &+= 1
        }
        return peak
    }

    /// The larger of each pair of lanes, in one instruction on x86-64 (`pointwiseMax`
    /// orders NaNs and compiles to several).
    @inlinable @inline(__always)
    static func larger(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        #if arch(x86_64)
        _mm_max_ps(a, b)
        #else
        pointwiseMax(a, b)
        #endif
    }

    /// |x| of each lane (the sign bit cleared).
    @inlinable @inline(__always)
    static func magnitudes(_ x: SIMD4<Float>) -> SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(x, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }

    @inlinable @inline(__always)
    static func load(_ address: UnsafePointer<Float>) -> SIMD4<Float> {
        UnsafeRawPointer(address).loadUnaligned(as: SIMD4<Float>.self)
    }

    @inlinable @inline(__always)
    static func store(_ value: SIMD4<Float>, at address: UnsafeMutablePointer<Float>) {
        UnsafeMutableRawPointer(address).storeBytes(of: value, as: SIMD4<Float>.self)
    }
}
