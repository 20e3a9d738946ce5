import Glibc

/// A moment on the monotonic clock, `CLOCK_MONOTONIC`: what live MIDI is stamped with, the
/// render thread's block starts, the hub's timers (the transport's clock is `TransportTime`,
/// an ALSA queue's `QueueTime`). From the kernel's arrival stamp to the frame an event lands
/// on, time stays in whole nanoseconds: no round trip through `Double` seconds.
///
/// A literal is seconds (`let due: HostTime = 1.5`), as songs and tests write times;
/// `seconds` gives them back for display and tempo arithmetic. Arithmetic saturates at the
/// limits of 64 bits (292 years) rather than wrapping, so an absurd song (a file whose delta
/// times add up to centuries) keeps its events in order.
///
/// - Thread: any (a plain value).
public struct HostTime: ClockMoment {
    /// Nanoseconds since the clock's origin (for `now()`, boot).
    public var nanoseconds: Int64

    /// - Thread: any.
    @inline(__always)
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The moment `sinceOrigin` after the clock's origin.
    /// - Thread: any.
    @inline(__always)
    public init(sinceOrigin: HostDuration) {
        nanoseconds = sinceOrigin.nanoseconds
    }

    /// The clock's origin.
    public static let zero = HostTime(nanoseconds: 0)

    /// Later than any moment the hub meets (73 years of uptime; far enough from the limits of
    /// 64 bits that its difference with any real moment, or with `distantPast`, holds in a
    /// `HostDuration`).
    public static let distantFuture = HostTime(nanoseconds: 1 << 61)

    /// Earlier than any moment the hub meets ("never", for a last-done time).
    public static let distantPast = HostTime(nanoseconds: -(1 << 61))

    /// The time since the clock's origin (boot).
    /// - Thread: any.
    public var sinceOrigin: HostDuration { HostDuration(nanoseconds: nanoseconds) }

    /// The monotonic clock now (a vDSO read: no system call, no allocation).
    /// - Thread: any.
    @inline(__always)
    public static func now() -> HostTime {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return HostTime(nanoseconds: Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec))
    }
}

extension HostTime: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A literal is seconds.
    /// - Thread: any.
    public init(floatLiteral seconds: Double) { self.init(seconds: seconds) }

    /// A literal is seconds.
    /// - Thread: any.
    public init(integerLiteral seconds: Int64) { self.init(nanoseconds: seconds * 1_000_000_000) }
}

extension HostTime: CustomStringConvertible {
    /// Seconds, as a literal writes them.
    public var description: String { "\(seconds) s" }
}
