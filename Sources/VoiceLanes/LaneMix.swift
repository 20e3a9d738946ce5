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
@frozen public struct LaneMix {
    public let left: Levels, right: Levels, reverb: Levels, chorus: Levels

    @inlinable public init(left: SIMD4<Float>, right: SIMD4<Float>, reverb: SIMD4<Float>, chorus: SIMD4<Float>) {
        self.left = Levels(left)
        self.right = Levels(right)
        self.reverb = Levels(reverb)
        self.chorus = Levels(chorus)
    }

    /// The four lanes' levels into one output, and each of them in all four places (to
    /// scale one lane's four frames).
    @frozen public struct Levels {
        public let lanes: SIMD4<Float>
        public let each: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

        @inlinable @inline(__always) public init(_ lanes: SIMD4<Float>) {
            self.lanes = lanes
            each = (SIMD4(repeating: lanes[0]), SIMD4(repeating: lanes[1]), SIMD4(repeating: lanes[2]),
                    SIMD4(repeating: lanes[3]))
        }
    }

    /// Adds `frames` frames of lane values (`values[i × stride]`: the four lanes at frame i)
    /// into `output`.
    @inlinable @inline(__always)
    public func add(_ values: UnsafePointer<SIMD4<Float>>, stride: Int = 1, frames: Int, into output: VoiceOutput) {
        let whole = frames & ~3
        var i = 0
        while i < whole {
            let at = i &* stride
            let lanes = FloatLanes.transposed(values[at], values[at &+ stride], values[at &+ 2 &* stride], values[at &+ 3 &* stride])
            Self.accumulate(lanes, left, into: output.left + i)
            Self.accumulate(lanes, right, into: output.right + i)
            if let sends = output.sends {
                Self.accumulate(lanes, reverb, into: sends.reverb + i)
                Self.accumulate(lanes, chorus, into: sends.chorus + i)
            }
            i &+= 4
        }
        while i < frames {
            let value = values[i &* stride]
            output.left[i] += (value * left.lanes).sum()
            output.right[i] += (value * right.lanes).sum()
            if let sends = output.sends {
                sends.reverb[i] += (value * reverb.lanes).sum()
                sends.chorus[i] += (value * chorus.lanes).sum()
            }
            i &+= 1
        }
    }

    /// Adds the lanes, each at its level in `levels`, to the four frames at `target`.
    @inlinable @inline(__always)
    static func accumulate(_ lanes: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
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
