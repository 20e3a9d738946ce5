/// A span of time in whole nanoseconds, the difference of two `HostTime`s: offsets between
/// clocks, delays, timeouts. A literal is seconds (`let margin: HostDuration = 0.02`);
/// arithmetic saturates at the limits of 64 bits, as `HostTime`'s does.
///
/// - Thread: any (a plain value).
public struct HostDuration: Hashable, Comparable, Sendable, BitwiseCopyable, AdditiveArithmetic {
    public var nanoseconds: Int64

    /// - Thread: any.
    @inline(__always)
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// `seconds` to the nearest nanosecond (clamped to what 64 bits hold).
    /// - Thread: any.
    public init(seconds: Double) {
        let nanoseconds = (seconds * 1e9).rounded()
        self.nanoseconds = nanoseconds.isNaN ? 0 : nanoseconds >= 9.2e18 ? .max : nanoseconds <= -9.2e18 ? .min : Int64(nanoseconds)
    }

    /// - Thread: any.
    public static func milliseconds(_ count: Int64) -> HostDuration { HostDuration(nanoseconds: count * 1_000_000) }

    /// - Thread: any.
    public static func microseconds(_ count: Int64) -> HostDuration { HostDuration(nanoseconds: count * 1_000) }

    public static let zero = HostDuration(nanoseconds: 0)

    /// Seconds, for display and tempo arithmetic.
    /// - Thread: any.
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    /// Microseconds, rounded toward zero (for reports).
    /// - Thread: any.
    public var microseconds: Int64 { nanoseconds / 1_000 }

    /// The span's length whichever way it points.
    /// - Thread: any.
    public var magnitude: HostDuration { HostDuration(nanoseconds: nanoseconds == .min ? .max : abs(nanoseconds)) }

    /// - Thread: any.
    public static func < (lhs: HostDuration, rhs: HostDuration) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// - Thread: any.
    @inline(__always)
    public static func + (lhs: HostDuration, rhs: HostDuration) -> HostDuration {
        HostDuration(nanoseconds: saturating(lhs.nanoseconds.addingReportingOverflow(rhs.nanoseconds), rhs.nanoseconds > 0))
    }

    /// - Thread: any.
    @inline(__always)
    public static func - (lhs: HostDuration, rhs: HostDuration) -> HostDuration {
        HostDuration(nanoseconds: saturating(lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds), rhs.nanoseconds < 0))
    }

    /// An operation's result, or the limit it ran past (`.max` when it went `up`).
    /// - Thread: any.
    @inline(__always)
    static func saturating(_ result: (partialValue: Int64, overflow: Bool), _ up: Bool) -> Int64 {
        result.overflow ? (up ? .max : .min) : result.partialValue
    }

    /// The span `factor` times as long, to the nearest nanosecond.
    /// - Thread: any.
    public static func * (duration: HostDuration, factor: Double) -> HostDuration {
        HostDuration(seconds: duration.seconds * factor)
    }

    /// The span `count` times as long.
    /// - Thread: any.
    public static func * (duration: HostDuration, count: Int) -> HostDuration {
        let product = duration.nanoseconds.multipliedReportingOverflow(by: Int64(count))
        return HostDuration(nanoseconds: saturating(product, (duration.nanoseconds < 0) == (count < 0)))
    }

    /// - Thread: any.
    public static prefix func - (duration: HostDuration) -> HostDuration { .zero - duration }
}

extension HostDuration: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// A literal is seconds.
    /// - Thread: any.
    public init(floatLiteral seconds: Double) { self.init(seconds: seconds) }

    /// A literal is seconds.
    /// - Thread: any.
    public init(integerLiteral seconds: Int64) { self.init(nanoseconds: seconds * 1_000_000_000) }
}

extension HostDuration: CustomStringConvertible {
    /// Seconds, as a literal writes them.
    public var description: String { "\(seconds) s" }
}
