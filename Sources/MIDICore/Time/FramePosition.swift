/// A place on an audio stream's sample clock: frames from the stream's start (an output's
/// first frame, an offline render's first). Where a sequenced event lands (`TimeBase`
/// turns its host time into one), where a block starts, how far a stream has played.
/// Counts of frames (a block's length, a buffer's) stay plain integers, and inside a block
/// an event carries its offset from the block's start (`offset(inBlockAt:)`, the one place
/// a position becomes that offset).
///
/// - Thread: any (a plain value; no allocation).
public struct FramePosition: Hashable, Comparable, Sendable, BitwiseCopyable, ExpressibleByIntegerLiteral,
    CustomStringConvertible {
    /// Frames from the stream's start.
    public var index: Int64

    public static let zero = FramePosition(0)

    /// - Thread: any (render: no allocation).
    @inline(__always)
    public init(_ index: Int64) {
        self.index = index
    }

    /// - Thread: any.
    public init(integerLiteral index: Int64) {
        self.index = index
    }

    public var description: String { "frame \(index)" }

    /// - Thread: any (render: no allocation).
    @inline(__always)
    public static func < (lhs: FramePosition, rhs: FramePosition) -> Bool { lhs.index < rhs.index }

    /// `frames` frames later (earlier when negative).
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public static func + (lhs: FramePosition, frames: Int64) -> FramePosition { FramePosition(lhs.index + frames) }

    /// Moves `frames` frames on.
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public static func += (lhs: inout FramePosition, frames: Int64) { lhs.index += frames }

    /// Frames from `rhs` to `lhs` (negative when `rhs` is later).
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public static func - (lhs: FramePosition, rhs: FramePosition) -> Int64 { lhs.index - rhs.index }

    /// This position's offset in the block that starts at `start`: 0 for a position before
    /// it (an event that came late sounds at the block's first frame).
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public func offset(inBlockAt start: FramePosition) -> UInt32 {
        UInt32(clamping: max(self - start, 0))
    }
}
