#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// How four voice lanes reach a `VoiceOutput`: each lane's level into the left and right
/// channels and the two sends. `add` takes the lanes' values frame by frame (one vector a
/// frame) and turns them, four frames at a time, into one vector per lane over those frames,
/// so each output's four frames are a sum of four products, added with one load and one
/// store — no sum across a vector per frame.
///
/// - Thread: render (a plain value).
struct LaneMix {
    let left: Levels, right: Levels, reverb: Levels, chorus: Levels

    init(left: SIMD4<Float>, right: SIMD4<Float>, reverb: SIMD4<Float>, chorus: SIMD4<Float>) {
        self.left = Levels(left)
        self.right = Levels(right)
        self.reverb = Levels(reverb)
        self.chorus = Levels(chorus)
    }

    /// The four lanes' levels into one output, and each of them in all four places (to
    /// scale one lane's four frames).
    struct Levels {
        let lanes: SIMD4<Float>
        let each: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

        @inline(__always) init(_ lanes: SIMD4<Float>) {
            self.lanes = lanes
            each = (SIMD4(repeating: lanes[0]), SIMD4(repeating: lanes[1]), SIMD4(repeating: lanes[2]),
                    SIMD4(repeating: lanes[3]))
        }
    }

    /// Adds `frames` frames of lane values (`values[i]`: the four lanes at frame i) into `output`.
    @inline(__always)
    func add(_ values: UnsafePointer<SIMD4<Float>>, frames: Int, into output: VoiceOutput) {
        let whole = frames & ~3
        var i = 0
        while i < whole {
            let lanes = Self.transposed(values[i], values[i &+ 1], values[i &+ 2], values[i &+ 3])
            Self.accumulate(lanes, left, into: output.left + i)
            Self.accumulate(lanes, right, into: output.right + i)
            if let sends = output.sends {
                Self.accumulate(lanes, reverb, into: sends.reverb + i)
                Self.accumulate(lanes, chorus, into: sends.chorus + i)
            }
            i &+= 4
        }
        while i < frames {
            let value = values[i]
            output.left[i] += (value * left.lanes).sum()
            output.right[i] += (value * right.lanes).sum()
            if let sends = output.sends {
                sends.reverb[i] += (value * reverb.lanes).sum()
                sends.chorus[i] += (value * chorus.lanes).sum()
            }
            i &+= 1
        }
    }

    /// Four frames of four lanes turned into the four lanes over those frames.
    @inline(__always)
    private static func transposed(_ r0: SIMD4<Float>, _ r1: SIMD4<Float>, _ r2: SIMD4<Float>, _ r3: SIMD4<Float>)
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

    /// Adds the lanes, each at its level in `levels`, to the four frames at `target`.
    @inline(__always)
    private static func accumulate(_ lanes: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
                                   _ levels: Levels, into target: UnsafeMutablePointer<Float>) {
        let l = levels.each
        #if arch(x86_64)
        let sum = _mm_add_ps(_mm_add_ps(_mm_mul_ps(lanes.0, l.0), _mm_mul_ps(lanes.1, l.1)),
                             _mm_add_ps(_mm_mul_ps(lanes.2, l.2), _mm_mul_ps(lanes.3, l.3)))
        _mm_storeu_ps(target, _mm_add_ps(_mm_loadu_ps(target), sum))
        #else
        let sum = lanes.0 * l.0 + lanes.1 * l.1 + lanes.2 * l.2 + lanes.3 * l.3
        let raw = UnsafeMutableRawPointer(target)
        raw.storeBytes(of: raw.loadUnaligned(as: SIMD4<Float>.self) + sum, as: SIMD4<Float>.self)
        #endif
    }
}
