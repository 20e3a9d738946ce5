/// A parameter value that moves linearly to a new target over a fixed number of frames,
/// so that changes do not produce zipper noise.
///
/// - Thread: render (a plain value owned by one node).
public struct SmoothedValue: Sendable {
    /// The value reached so far.
    public var current: Float { value }
    /// Where the ramp ends.
    public private(set) var target: Float
    @usableFromInline var value: Float
    @usableFromInline var step: Float = 0
    @usableFromInline var remaining: Int = 0
    /// Length of a ramp in frames (set in `prepare`).
    public var rampFrames: Int

    public init(_ value: Float, rampFrames: Int = 480) {
        self.value = value
        target = value
        self.rampFrames = max(1, rampFrames)
    }

    /// Starts a ramp from the current value to `value`.
    public mutating func set(_ value: Float) {
        target = value
        remaining = rampFrames
        step = (value - self.value) / Float(rampFrames)
    }

    /// Jumps to `value` at once.
    public mutating func reset(_ value: Float) {
        self.value = value
        target = value
        remaining = 0
        step = 0
    }

    public var isRamping: Bool { remaining > 0 }

    /// Returns the value for the next frame.
    @inlinable @inline(__always)
    public mutating func next() -> Float {
        if remaining > 0 {
            remaining -= 1
            value = remaining == 0 ? target : value + step
        }
        return value
    }

    /// Advances `frames` frames at once and returns the value reached.
    @inlinable
    public mutating func advance(_ frames: Int) -> Float {
        if remaining > 0 {
            let n = min(frames, remaining)
            remaining -= n
            value = remaining == 0 ? target : value + step * Float(n)
        }
        return value
    }
}
