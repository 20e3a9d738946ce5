/// Bars and beats of a sequence, for the text format's `bar:beat[:tick]` positions.
///
/// Bars are 1-based and follow the time signatures: a beat is the signature's
/// denominator (in 6/8 a beat is an eighth), a bar holds `numerator` beats. A time
/// signature always starts a new bar at its tick; one placed in the middle of a
/// bar cuts that bar short. Before the first signature the time is 4/4.
///
/// Bars can only be counted while every beat is a whole number of ticks (PPQ
/// division, numerator ≥ 1, `4 × ppq` divisible by the denominator); after a
/// signature that breaks this, positions must be given as `@tick`.
///
/// - Thread: any (a plain value).
struct SequenceTextBars {
    /// The stretch of time from one time signature to the next.
    struct Segment {
        var tick: Tick
        /// Number of the bar that starts at `tick`; nil once bars stopped being countable.
        var bar: Int?
        var numerator: Int
        /// Ticks per beat; nil when a beat is not a whole number of ticks.
        var ticksPerBeat: Int?

        var ticksPerBar: Int? {
            guard let ticksPerBeat, numerator > 0 else { return nil }
            return numerator * ticksPerBeat
        }
    }

    /// One bar: where it starts, its beats and its length (shorter than
    /// `numerator × ticksPerBeat` when a time signature cuts it short).
    struct Bar {
        var start: Tick
        var numerator: Int
        var ticksPerBeat: Int
        var length: Int
    }

    enum Lookup {
        case bar(Bar)
        /// A time signature before this bar has no whole-tick beat (or the division is SMPTE).
        case uncountable
        /// The bar's tick is past `Tick.max`.
        case tooFar
    }

    let ticksPerQuarter: Int?
    private(set) var segments: [Segment]

    /// `ticksPerQuarter` is nil for SMPTE division (no bars at all).
    init(ticksPerQuarter: Int?) {
        self.ticksPerQuarter = ticksPerQuarter.flatMap { $0 > 0 ? $0 : nil }
        segments = [Segment(tick: 0, bar: self.ticksPerQuarter == nil ? nil : 1, numerator: 4,
                            ticksPerBeat: self.ticksPerQuarter)]
    }

    /// True when every position in the sequence can be written as bar:beat:tick.
    var isCountable: Bool {
        segments.allSatisfy { $0.bar != nil && $0.ticksPerBar != nil }
    }

    /// Adds a time signature; `tick` must not be before the last one added.
    mutating func append(tick: Tick, numerator: UInt8, denominatorPower: UInt8) {
        let last = segments[segments.count - 1]
        var bar: Int?
        if let lastBar = last.bar, tick == last.tick {
            bar = lastBar
        } else if let lastBar = last.bar, let length = last.ticksPerBar {
            let elapsed = (tick - last.tick).whole
            let bars = elapsed / UInt64(length) + (elapsed % UInt64(length) == 0 ? 0 : 1)
            bar = bars < UInt64(Int.max - lastBar) ? lastBar + Int(bars) : nil
        }
        segments.append(Segment(tick: tick, bar: bar, numerator: Int(numerator),
                                ticksPerBeat: ticksPerBeat(denominatorPower: denominatorPower)))
    }

    /// Ticks in one beat of a signature with this denominator, nil when not whole.
    func ticksPerBeat(denominatorPower: UInt8) -> Int? {
        guard let ticksPerQuarter, denominatorPower <= 24 else { return nil }
        let whole = ticksPerQuarter * 4
        let denominator = 1 << Int(denominatorPower)
        return whole % denominator == 0 ? whole / denominator : nil
    }

    /// Ticks per beat of the signature in force at `tick`.
    func ticksPerBeat(at tick: Tick, segmentLimit: Int? = nil) -> Int? {
        segments[segmentIndex(at: tick, limit: segmentLimit ?? segments.count)].ticksPerBeat
    }

    /// The bar with this 1-based number.
    func bar(_ number: Int) -> Lookup {
        guard let index = segments.lastIndex(where: { ($0.bar ?? Int.max) <= number }),
              let first = segments[index].bar, let length = segments[index].ticksPerBar,
              let ticksPerBeat = segments[index].ticksPerBeat
        else { return .uncountable }
        let (offset, overflow) = (number - first).multipliedReportingOverflow(by: length)
        guard !overflow else { return .tooFar }
        guard let start = Tick(exactly: UInt64(offset)).flatMap(segments[index].tick.adding) else { return .tooFar }
        var barLength = length
        if index + 1 < segments.count {
            let next = segments[index + 1].tick
            guard next > start else { return .uncountable }
            barLength = Int(min(UInt64(length), (next - start).whole))
        }
        return .bar(Bar(start: start, numerator: segments[index].numerator, ticksPerBeat: ticksPerBeat, length: barLength))
    }

    /// Bar, beat (both 1-based) and tick within the beat of `tick`; nil when bars
    /// are not countable there. With `segmentLimit`, only the first that many
    /// segments count: a time signature's own position is written in the bars
    /// before it took effect, as the parser reads it.
    func position(of tick: Tick, segmentLimit: Int? = nil) -> (bar: Int, beat: Int, tick: Int)? {
        let segment = segments[segmentIndex(at: tick, limit: segmentLimit ?? segments.count)]
        guard let first = segment.bar, let length = segment.ticksPerBar, let ticksPerBeat = segment.ticksPerBeat else { return nil }
        let offset = (tick - segment.tick).whole
        let bars = offset / UInt64(length)
        guard bars < UInt64(Int.max - first) else { return nil }
        let within = Int(offset % UInt64(length))
        return (first + Int(bars), within / ticksPerBeat + 1, within % ticksPerBeat)
    }

    /// Index of the last segment (among the first `limit`) starting at or before `tick`.
    private func segmentIndex(at tick: Tick, limit: Int) -> Int {
        var low = 0
        var high = min(max(limit, 1), segments.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if segments[middle].tick <= tick { low = middle } else { high = middle }
        }
        return low
    }
}
