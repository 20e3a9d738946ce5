#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

extension SoundFontFrames {
    /// What `cubicTaps` and `cubicTaps24` multiply the frames' values (-1…1) by.
    public static let tapScale: Float = 2_147_483_648
    /// The four taps of a cubic interpolation for four voices at once: frames `i - 1` …
    /// `i + 2` for each of `i0` … `i3` (all inside the frames), transposed so each vector
    /// holds one tap of the four voices. Values are the frames × `tapScale` (2^31: each
    /// 16-bit word in the top half of a 32-bit integer, converted as it is); the caller
    /// scales once, after its linear steps.
    ///
    /// On x86-64 four 8-byte loads and SSE2 unpacks transpose and widen the words (Swift's
    /// element-wise SIMD initializers made the optimizer split the lanes apart); elsewhere
    /// the same in plain SIMD code.
    ///
    /// - Thread: any; render-safe.
    @inlinable @inline(__always)
    public func cubicTaps(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int)
        -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
        cubicTaps(rows: row(i0), row(i1), row(i2), row(i3))
    }

    /// The words of frames `i - 1` … `i + 2` (all inside the frames) in one 64-bit value, the
    /// first in the low 16 bits: a voice's four taps as `cubicTaps(rows:)` takes them.
    /// - Thread: any; render-safe.
    @inlinable @inline(__always)
    public func row(_ i: Int) -> Int64 {
        words.loadUnaligned(fromByteOffset: 2 &* (i &- 1), as: Int64.self)
    }

    /// Frame `index`'s 16-bit word as the frames hold it (what `row` packs).
    /// - Thread: any; render-safe.
    @inlinable @inline(__always)
    public func word(_ index: Int) -> UInt16 {
        words.loadUnaligned(fromByteOffset: 2 &* index, as: UInt16.self)
    }

    /// `cubicTaps` of four voices' rows (`row`, or words put together as it packs them).
    /// - Thread: any; render-safe.
    @inlinable @inline(__always)
    public func cubicTaps(rows r0: Int64, _ r1: Int64, _ r2: Int64, _ r3: Int64)
        -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
        #if arch(x86_64)
        // Words of voices 0 and 1 interleaved, then 2 and 3; then each tap's four words together.
        let low = _mm_unpacklo_epi16(_mm_cvtsi64_si128(r0), _mm_cvtsi64_si128(r1))
        let high = _mm_unpacklo_epi16(_mm_cvtsi64_si128(r2), _mm_cvtsi64_si128(r3))
        let early = _mm_unpacklo_epi32(low, high), late = _mm_unpackhi_epi32(low, high)
        // Each word into the top half of a 32-bit lane over zeros: the word × 65536, sign and all.
        let zero = _mm_setzero_si128()
        return (_mm_cvtepi32_ps(_mm_unpacklo_epi16(zero, early)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(zero, early)),
                _mm_cvtepi32_ps(_mm_unpacklo_epi16(zero, late)), _mm_cvtepi32_ps(_mm_unpackhi_epi16(zero, late)))
        #else
        @inline(__always) func taps(_ row: Int64) -> SIMD4<Float> {
            SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: unsafeBitCast(row, to: SIMD4<Int16>.self)) &<< 16)
        }
        let t0 = taps(r0), t1 = taps(r1), t2 = taps(r2), t3 = taps(r3)
        return (SIMD4(t0[0], t1[0], t2[0], t3[0]), SIMD4(t0[1], t1[1], t2[1], t3[1]),
                SIMD4(t0[2], t1[2], t2[2], t3[2]), SIMD4(t0[3], t1[3], t2[3], t3[3]))
        #endif
    }

    /// `cubicTaps` of 24-bit frames (`lowBytes` present), in the same scale: each frame's
    /// word in the top 16 bits of a 32-bit integer and its low byte in the 8 below. Row by
    /// row, then turned (24-bit fonts are rare; this is the plain form).
    ///
    /// - Thread: any; render-safe.
    @inlinable @inline(__always)
    public func cubicTaps24(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int)
        -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
        let low = lowBytes.unsafelyUnwrapped
        @inline(__always) func row(_ index: Int) -> SIMD4<Float> {
            let words = SIMD4<Int32>(truncatingIfNeeded: words.loadUnaligned(fromByteOffset: 2 &* (index &- 1),
                                                                             as: SIMD4<Int16>.self))
            let bytes = SIMD4<Int32>(truncatingIfNeeded: low.loadUnaligned(fromByteOffset: index &- 1, as: SIMD4<UInt8>.self))
            return SIMD4<Float>(words &<< 16 | bytes &<< 8)
        }
        let r0 = row(i0), r1 = row(i1), r2 = row(i2), r3 = row(i3)
        return (SIMD4(r0[0], r1[0], r2[0], r3[0]), SIMD4(r0[1], r1[1], r2[1], r3[1]),
                SIMD4(r0[2], r1[2], r2[2], r3[2]), SIMD4(r0[3], r1[3], r2[3], r3[3]))
    }
}
