/// A position in a song, in its ticks (the file's division): whole ticks where the file puts
/// its events, and a fraction between two while the transport plays — fixed point, 1/65536
/// of a tick — so a position follows the host clock without a `Double` on the way
/// (`TickRate` converts). Never negative; arithmetic saturates at 0 and at `max`.
///
/// - Thread: any (a plain value).
public struct Tick: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The position in 65536ths of a tick.
    public var units: UInt64

    /// Units in one tick.
    public static let unitsPerTick: UInt64 = 1 << 16
    public static let zero = Tick(units: 0)
    /// The farthest position (2^48 ticks, days of music at any division).
    public static let max = Tick(units: .max)

    /// - Thread: any.
    @inline(__always)
    public init(units: UInt64) {
        self.units = units
    }

    /// `whole` ticks (`max` past it).
    /// - Thread: any.
    @inline(__always)
    public init(_ whole: UInt64) {
        units = whole > UInt64.max >> 16 ? .max : whole << 16
    }

    /// `whole` ticks; nil past `max` (a tick a file or a text cannot mean).
    /// - Thread: any.
    public init?(exactly whole: UInt64) {
        guard whole <= Tick.max.whole else { return nil }
        units = whole << 16
    }

    /// A literal is whole ticks (`let bar: Tick = 1920`).
    /// - Thread: any.
    public init(integerLiteral whole: UInt64) {
        self.init(whole)
    }

    /// `numerator / denominator` ticks, rounded down (a clock pulse's place, 480 × n / 24).
    /// - Thread: any.
    public init(_ numerator: UInt64, over denominator: UInt64) {
        units = Self.scaled(numerator, by: Self.unitsPerTick, over: denominator)
    }

    /// The whole tick at or before the position.
    /// - Thread: any.
    public var whole: UInt64 { units >> 16 }

    /// The first whole tick at or after the position.
    /// - Thread: any.
    public var wholeRoundedUp: UInt64 { (units >> 16) + (units & (Self.unitsPerTick - 1) == 0 ? 0 : 1) }

    /// The whole tick nearest the position.
    /// - Thread: any.
    public var nearestWhole: UInt64 { (units >> 16) + (units & (Self.unitsPerTick - 1) >= Self.unitsPerTick / 2 ? 1 : 0) }

    /// The whole tick nearest the position, as a position (where a file puts an event).
    /// - Thread: any.
    public var rounded: Tick { Tick(nearestWhole) }

    /// Ticks with their fraction, for display and reports only.
    /// - Thread: any.
    public var ticks: Double { Double(units) / Double(Self.unitsPerTick) }

    public var description: String {
        units & (Self.unitsPerTick - 1) == 0 ? "\(whole)" : "\(ticks)"
    }

    /// - Thread: any.
    public static func < (lhs: Tick, rhs: Tick) -> Bool { lhs.units < rhs.units }

    /// - Thread: any.
    @inline(__always)
    public static func + (lhs: Tick, rhs: Tick) -> Tick {
        let (sum, overflow) = lhs.units.addingReportingOverflow(rhs.units)
        return Tick(units: overflow ? .max : sum)
    }

    /// `self + other`, nil when it would pass `max` (where `+` saturates).
    /// - Thread: any.
    public func adding(_ other: Tick) -> Tick? {
        let (sum, overflow) = units.addingReportingOverflow(other.units)
        return overflow ? nil : Tick(units: sum)
    }

    /// The span from `rhs` to `lhs`; zero when `rhs` is later.
    /// - Thread: any.
    @inline(__always)
    public static func - (lhs: Tick, rhs: Tick) -> Tick {
        Tick(units: lhs.units > rhs.units ? lhs.units - rhs.units : 0)
    }

    /// `a × b / c` in 128 bits, rounded down; `UInt64.max` when the quotient does not fit.
    /// - Thread: any.
    @inline(__always)
    public static func scaled(_ a: UInt64, by b: UInt64, over c: UInt64) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        guard c > 0, product.high < c else { return .max }
        return c.dividingFullWidth(product).quotient
    }
}
