/// A moment on one of the hub's clocks, in whole nanoseconds since that clock's origin. Each
/// clock is a type of its own — `HostTime` (the monotonic clock), `QueueTime` (an ALSA
/// sequencer queue's real time), `TransportTime` (the transport's clock: the audio rendered)
/// — so that a time on one is never taken for a time on another: they meet only through the
/// conversions their types name. Spans between two moments of a clock are `HostDuration`s,
/// whichever the clock; arithmetic saturates as theirs does.
///
/// - Thread: any (conforming types are plain values).
public protocol ClockMoment: Hashable, Comparable, Sendable, BitwiseCopyable {
    /// The time since the clock's origin.
    var sinceOrigin: HostDuration { get }
    /// The moment `sinceOrigin` after the clock's origin.
    init(sinceOrigin: HostDuration)
}

extension ClockMoment {
    /// The clock's origin.
    /// - Thread: any.
    @inlinable public static var origin: Self { Self(sinceOrigin: .zero) }

    /// The moment `seconds` after the clock's origin, to the nearest nanosecond.
    /// - Thread: any.
    @inlinable public init(seconds: Double) { self.init(sinceOrigin: HostDuration(seconds: seconds)) }

    /// Seconds since the clock's origin, for display and tempo arithmetic.
    /// - Thread: any.
    @inlinable public var seconds: Double { sinceOrigin.seconds }

    /// - Thread: any.
    @inlinable public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }

    /// - Thread: any.
    @inlinable public static func + (time: Self, duration: HostDuration) -> Self { Self(sinceOrigin: time.sinceOrigin + duration) }

    /// - Thread: any.
    @inlinable public static func - (time: Self, duration: HostDuration) -> Self { Self(sinceOrigin: time.sinceOrigin - duration) }

    /// How long from `earlier` to `later` (negative when `later` is earlier).
    /// - Thread: any.
    @inlinable public static func - (later: Self, earlier: Self) -> HostDuration { later.sinceOrigin - earlier.sinceOrigin }

    /// - Thread: any.
    @inlinable public static func += (time: inout Self, duration: HostDuration) { time = time + duration }

    /// - Thread: any.
    @inlinable public static func -= (time: inout Self, duration: HostDuration) { time = time - duration }
}
