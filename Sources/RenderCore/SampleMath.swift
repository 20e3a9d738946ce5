#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// Loops over samples that every node and the plan run each block, four samples at a time
/// (Swift leaves these loops scalar when it cannot prove the two pointers apart).
///
/// - Thread: render; allocation-free.
public enum SampleMath {
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
