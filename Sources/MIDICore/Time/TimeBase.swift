/// Host time and audio frames at one sample rate: the one place a duration becomes frames
/// or frames a duration, in integers (a 128-bit product, no `Double` on the way), so an
/// event stamped in nanoseconds lands on the same frame however long the stream has run.
///
/// - Thread: any (a plain value; no allocation).
public struct TimeBase: Hashable, Sendable, BitwiseCopyable {
    /// Frames a second.
    public let sampleRate: Int

    /// - Thread: any.
    public init(sampleRate: Int) {
        precondition(sampleRate > 0, "a sample rate is positive")
        self.sampleRate = sampleRate
    }

    /// Whole frames in `duration`, rounded down (a moment falls in the frame it is in);
    /// negative durations round toward zero.
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public func frames(in duration: HostDuration) -> Int64 {
        let product = duration.nanoseconds.multipliedFullWidth(by: Int64(sampleRate))
        return Self.nanosecondsPerSecond.dividingFullWidth(product).quotient
    }

    /// The frame nearest to `duration` after the stream's start (a scheduled event's frame).
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public func nearestFrame(after duration: HostDuration) -> FramePosition {
        let product = duration.nanoseconds.multipliedFullWidth(by: Int64(sampleRate))
        let (low, carry) = product.low.addingReportingOverflow(UInt64(Self.nanosecondsPerSecond / 2))
        return FramePosition(Self.nanosecondsPerSecond.dividingFullWidth((product.high + (carry ? 1 : 0), low)).quotient)
    }

    /// How long the stream has played when it reaches `position`, to the nanosecond below.
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public func duration(at position: FramePosition) -> HostDuration {
        duration(ofFrames: position.index)
    }

    /// How long `frames` frames last, to the nanosecond below.
    /// - Thread: any (render: no allocation).
    @inline(__always)
    public func duration(ofFrames frames: Int64) -> HostDuration {
        let product = frames.multipliedFullWidth(by: Self.nanosecondsPerSecond)
        return HostDuration(nanoseconds: Int64(sampleRate).dividingFullWidth(product).quotient)
    }

    private static let nanosecondsPerSecond: Int64 = 1_000_000_000
}
