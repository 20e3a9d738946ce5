/// A moment on an ALSA sequencer queue's real-time clock: whole nanoseconds since the queue
/// started. The kernel stamps arriving events with it and delivers scheduled ones by it; it
/// is not the monotonic clock (`HostTime`), which the hub routes and renders by, and the two
/// meet only through a measured offset (`ahead(of:)`, `init(_:ahead:)`, `monotonic(ahead:)`:
/// the one place a time goes from one clock to the other).
///
/// - Thread: any (a plain value).
public struct QueueTime: ClockMoment {
    /// The time since the queue started.
    public var sinceOrigin: HostDuration

    /// - Thread: any.
    @inlinable
    public init(sinceOrigin: HostDuration) {
        self.sinceOrigin = sinceOrigin
    }

    /// Earlier than any stamp ("never").
    public static let distantPast = QueueTime(sinceOrigin: HostDuration(nanoseconds: -(1 << 61)))

    /// The monotonic moment `monotonic` on this clock, which runs `ahead` of it.
    /// - Thread: any.
    @inlinable
    public init(_ monotonic: HostTime, ahead: HostDuration) {
        sinceOrigin = monotonic.sinceOrigin + ahead
    }

    /// This moment on the monotonic clock, which this clock runs `ahead` of.
    /// - Thread: any.
    @inlinable
    public func monotonic(ahead: HostDuration) -> HostTime {
        HostTime.zero + (sinceOrigin - ahead)
    }

    /// How far this clock runs ahead of another (the monotonic clock, the transport's), from
    /// a reading of both at once (this, and `other`).
    /// - Thread: any.
    public func ahead(of other: some ClockMoment) -> HostDuration {
        sinceOrigin - other.sinceOrigin
    }
}
