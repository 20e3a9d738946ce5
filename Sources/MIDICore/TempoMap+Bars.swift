/// A time signature from `tick` on. By convention it starts a bar.
///
/// - Thread: any (a plain value).
public struct TimeSignatureChange: Hashable, Sendable, TimedChange {
    public var tick: UInt64
    /// Beats per bar (at least 1).
    public var numerator: Int
    /// The beat's note value: 4 = quarter, 8 = eighth… (a power of two, at most 256).
    public var denominator: Int

    /// Sanitises the stored fields: a numerator of 0 counts as 1, powers above 8 as 8.
    init(tick: UInt64, numerator: UInt8, denominatorPower: UInt8) {
        self.tick = tick
        self.numerator = max(Int(numerator), 1)
        self.denominator = 1 << min(Int(denominatorPower), 8)
    }
}

/// A musical position: 1-based bar and beat, plus the ticks past the beat's start.
///
/// - Thread: any (a plain value).
public struct BarBeat: Hashable, Sendable, CustomStringConvertible {
    public var bar: Int
    public var beat: Int
    public var tick: UInt64

    public init(bar: Int, beat: Int, tick: UInt64) {
        self.bar = bar
        self.beat = beat
        self.tick = tick
    }

    /// `bar:beat` or `bar:beat+tick`, as the text format writes positions.
    public var description: String { tick == 0 ? "\(bar):\(beat)" : "\(bar):\(beat)+\(tick)" }
}

/// One stretch of constant meter, in fixed point: a beat lasts `4 × ticksPerQuarter`
/// units, one tick is `denominator` units, so fractional beat lengths stay exact.
struct Meter: Sendable {
    var tick: UInt64
    /// The 1-based number of the bar starting at `tick`.
    var bar: Int
    var beatsPerBar: UInt64
    var denominator: UInt64
    var beatUnits: UInt64

    var barUnits: UInt64 { beatsPerBar * beatUnits }

    /// Meter stretches for `signatures`; a partial bar before a change counts as a bar.
    static func segments(for signatures: [TimeSignatureChange], ticksPerQuarter: UInt64) -> [Meter] {
        var meters: [Meter] = []
        for signature in signatures {
            var bar = 1
            if let previous = meters.last {
                let units = (signature.tick - previous.tick) * previous.denominator
                bar = previous.bar + Int((units + previous.barUnits - 1) / previous.barUnits)
            }
            meters.append(Meter(
                tick: signature.tick, bar: bar, beatsPerBar: UInt64(signature.numerator),
                denominator: UInt64(signature.denominator), beatUnits: 4 * ticksPerQuarter))
        }
        return meters
    }
}

extension TempoMap {
    /// Ticks beyond this are clamped in bar arithmetic (far past any real file), so
    /// fixed-point products cannot overflow.
    private static let largestBarTick: UInt64 = 1 << 48
    private static let largestBarNumber = 1 << 30

    /// The bar, beat and tick within the beat at `tick`, counting bars across
    /// time-signature changes.
    ///
    /// - Thread: any.
    public func barBeat(atTick tick: UInt64) -> BarBeat {
        let tick = min(tick, Self.largestBarTick)
        let meter = meters[Self.lastIndex(in: meters, atOrBefore: tick, key: \.tick)]
        let units = (tick - meter.tick) * meter.denominator
        let withinBar = units % meter.barUnits
        return BarBeat(
            bar: meter.bar + Int(units / meter.barUnits),
            beat: Int(withinBar / meter.beatUnits) + 1,
            tick: withinBar % meter.beatUnits / meter.denominator)
    }

    /// The tick where `beat` (1-based) of `bar` (1-based) starts; values below 1 count as 1.
    ///
    /// - Thread: any.
    public func tick(bar: Int, beat: Int) -> UInt64 {
        let bar = min(max(bar, 1), Self.largestBarNumber)
        let beat = min(max(beat, 1), Self.largestBarNumber)
        let meter = meters[Self.lastIndex(in: meters, atOrBefore: bar, key: \.bar)]
        let units = UInt64(bar - meter.bar) * meter.barUnits + UInt64(beat - 1) * meter.beatUnits
        return meter.tick + units / meter.denominator
    }
}
