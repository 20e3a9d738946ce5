/// A moment on an ALSA sequencer queue's real-time clock: whole nanoseconds since the queue
/// started. The kernel stamps arriving events with it and delivers scheduled ones by it; it
/// is not the monotonic clock (`HostTime`), which the hub routes and renders by, and the two
/// meet only through a measured offset (`QueueTime.ahead(of:)`, `init(_:ahead:)`,
/// `monotonic(ahead:)`: the one place a time goes from one clock to the other).
///
/// - Thread: any (a plain value).
public struct QueueTime: Hashable, Comparable, Sendable, BitwiseCopyable {
    /// The time since the queue started.
    public var sinceStart: HostDuration

    /// - Thread: any.
    @inline(__always)
    public init(sinceStart: HostDuration) {
        self.sinceStart = sinceStart
    }

    /// The queue's start.
    public static let start = QueueTime(sinceStart: .zero)

    /// Earlier than any stamp ("never").
    public static let distantPast = QueueTime(sinceStart: HostDuration(nanoseconds: -(1 << 61)))

    /// Seconds since the queue started, for display.
    /// - Thread: any.
    public var seconds: Double { sinceStart.seconds }

    /// The monotonic moment `monotonic` on this clock, which runs `ahead` of it.
    /// - Thread: any.
    @inline(__always)
    public init(_ monotonic: HostTime, ahead: HostDuration) {
        sinceStart = (monotonic + ahead).sinceOrigin
    }

    /// This moment on the monotonic clock, which this clock runs `ahead` of.
    /// - Thread: any.
    @inline(__always)
    public func monotonic(ahead: HostDuration) -> HostTime {
        HostTime.zero + sinceStart - ahead
    }

    /// How far this clock runs ahead of the monotonic one, from a reading of both at once
    /// (this, and `monotonic`).
    /// - Thread: any.
    public func ahead(of monotonic: HostTime) -> HostDuration {
        sinceStart - monotonic.sinceOrigin
    }

    /// - Thread: any.
    public static func < (lhs: QueueTime, rhs: QueueTime) -> Bool { lhs.sinceStart < rhs.sinceStart }

    /// - Thread: any.
    public static func - (lhs: QueueTime, rhs: QueueTime) -> HostDuration { lhs.sinceStart - rhs.sinceStart }

    /// - Thread: any.
    public static func + (lhs: QueueTime, rhs: HostDuration) -> QueueTime { QueueTime(sinceStart: lhs.sinceStart + rhs) }
}
