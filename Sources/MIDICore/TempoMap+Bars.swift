/// A time signature from `tick` on. By convention it starts a bar.
///
/// - Thread: any (a plain value).
public struct TimeSignatureChange: Hashable, Sendable, TimedChange {
    public var tick: Tick
    /// Beats per bar (at least 1).
    public var numerator: Int
    /// The beat's note value: 4 = quarter, 8 = eighth… (a power of two, at most 256).
    public var denominator: Int

    /// Sanitises the stored fields: a numerator of 0 counts as 1, powers above 8 as 8.
    init(tick: Tick, numerator: UInt8, denominatorPower: UInt8) {
        self.tick = tick
        self.numerator = max(Int(numerator), 1)
        self.denominator = 1 << min(Int(denominatorPower), 8)
    }
}

/// A musical position: 1-based bar and beat, plus the whole ticks past the beat's start.
///
/// - Thread: any (a plain value).
public struct BarBeat: Hashable, Sendable, CustomStringConvertible {
    public var bar: Int
    public var beat: Int
    public var tick: Tick

    public init(bar: Int, beat: Int, tick: Tick) {
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
    var tick: Tick
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
                let units = (signature.tick - previous.tick).whole * previous.denominator
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
    /// Bars and beats beyond this are clamped (far past any real file); a `Tick` has at most
    /// 2^48 whole ticks, so the fixed-point products (× a denominator ≤ 256) cannot overflow.
    private static let largestBarNumber = 1 << 30

    /// The bar, beat and whole tick within the beat at `tick` (its fraction dropped), counting
    /// bars across time-signature changes.
    ///
    /// - Thread: any.
    public func barBeat(atTick tick: Tick) -> BarBeat {
        let meter = meters[Self.lastIndex(in: meters, atOrBefore: tick, key: \.tick)]
        let units = (tick - meter.tick).whole * meter.denominator
        let withinBar = units % meter.barUnits
        return BarBeat(
            bar: meter.bar + Int(units / meter.barUnits),
            beat: Int(withinBar / meter.beatUnits) + 1,
            tick: Tick(withinBar % meter.beatUnits / meter.denominator))
    }

    /// The tick where `beat` (1-based) of `bar` (1-based) starts; values below 1 count as 1.
    ///
    /// - Thread: any.
    public func tick(bar: Int, beat: Int) -> Tick {
        let bar = min(max(bar, 1), Self.largestBarNumber)
        let beat = min(max(beat, 1), Self.largestBarNumber)
        let meter = meters[Self.lastIndex(in: meters, atOrBefore: bar, key: \.bar)]
        let units = UInt64(bar - meter.bar) * meter.barUnits + UInt64(beat - 1) * meter.beatUnits
        return meter.tick + Tick(units / meter.denominator)
    }
}
