import SoundFont

/// A lane's taps where they cross its loop's end, ready as rows (`SoundFontFrames.row`):
/// a frame whose taps reach past the end reads the end's last frames and then the loop's
/// start, as `EdgeFrames` has them. The two such frames' rows are put together once per
/// span, so a frame at the seam costs what any other frame does (no tap read one by one).
///
/// - Thread: render (a plain value).
@frozen public struct LaneSeam {
    /// The first whole frame whose taps reach past the loop's end (`Int.max`: the lane does
    /// not wrap in the lanes).
    public let zone: Int
    /// The rows of whole frames `zone` and `zone + 1` (the last before the end).
    public let first: Int64, second: Int64

    @inlinable @inline(__always)
    public init(_ loop: LaneLoop, _ frames: SoundFontFrames) {
        guard loop.end != .max else {
            (zone, first, second) = (.max, 0, 0)
            return
        }
        let end = loop.end, start = loop.end - loop.length
        @inline(__always) func word(_ index: Int, at slot: Int) -> Int64 {
            Int64(frames.word(index)) &<< (16 &* slot)
        }
        zone = end - 2
        first = word(end - 3, at: 0) | word(end - 2, at: 1) | word(end - 1, at: 2) | word(start, at: 3)
        second = word(end - 2, at: 0) | word(end - 1, at: 1) | word(start, at: 2) | word(start + 1, at: 3)
    }

    /// The row of whole frame `frame` (before the loop's end).
    @inlinable @inline(__always)
    public func row(_ frame: Int, in frames: SoundFontFrames) -> Int64 {
        frame < zone ? frames.row(frame) : frame == zone ? first : second
    }
}

/// Four lanes' seams, kept in a tuple of locals like `LaneLoops`.
public typealias LaneSeams = (LaneSeam, LaneSeam, LaneSeam, LaneSeam)

extension LaneSeam {
    /// The seams of four lanes' loops.
    @inlinable @inline(__always)
    public static func of(_ loops: LaneLoops, _ frames: SoundFontFrames) -> LaneSeams {
        (LaneSeam(loops.0, frames), LaneSeam(loops.1, frames), LaneSeam(loops.2, frames), LaneSeam(loops.3, frames))
    }

    /// `cubicTaps` of four lanes at whole frames `at`, through their seams.
    @inlinable @inline(__always)
    public static func cubicTaps(_ at: LanePositions, _ seams: LaneSeams, _ frames: SoundFontFrames)
        -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
        frames.cubicTaps(rows: seams.0.row(at.0, in: frames), seams.1.row(at.1, in: frames),
                         seams.2.row(at.2, in: frames), seams.3.row(at.3, in: frames))
    }
}
