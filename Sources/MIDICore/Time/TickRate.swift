/// How long ticks last at one tempo: `nanoseconds` for every `ticks` ticks, kept as that
/// exact ratio (a tempo's microseconds per quarter over the file's division, a SMPTE
/// division's frame rate, a tempo override), so song time becomes host time and back in
/// 128-bit integers, not through `Double` seconds.
///
/// - Thread: any (a plain value).
public struct TickRate: Hashable, Sendable, BitwiseCopyable {
    /// Nanoseconds that `ticks` ticks last.
    public let nanoseconds: UInt64
    public let ticks: UInt64

    /// - Thread: any.
    public init(nanoseconds: UInt64, ticks: UInt64) {
        precondition(nanoseconds > 0 && ticks > 0, "a tick rate is positive")
        self.nanoseconds = nanoseconds
        self.ticks = ticks
    }

    /// A tempo (a file's tempo event) at a division of `ticksPerQuarter`.
    /// - Thread: any.
    public init(microsecondsPerQuarter: UInt32, ticksPerQuarter: Int) {
        self.init(nanoseconds: UInt64(max(microsecondsPerQuarter, 1)) * 1_000, ticks: UInt64(max(ticksPerQuarter, 1)))
    }

    /// A tempo in quarter notes a minute (an override), to the nanosecond per quarter.
    /// - Thread: any.
    public init(beatsPerMinute: Double, ticksPerQuarter: Int) {
        let perQuarter = (60e9 / beatsPerMinute).rounded()
        self.init(nanoseconds: perQuarter.isFinite && perQuarter >= 1 ? UInt64(min(perQuarter, 1e15)) : 1,
                  ticks: UInt64(max(ticksPerQuarter, 1)))
    }

    /// A SMPTE division: `framesPerSecond` (29 is 29.97, drop-frame) × `ticksPerFrame` ticks a second.
    /// - Thread: any.
    public init(framesPerSecond: UInt8, ticksPerFrame: UInt8) {
        let perFrame = UInt64(max(ticksPerFrame, 1))
        if framesPerSecond == 29 {
            self.init(nanoseconds: 1_001_000_000_000, ticks: 30_000 * perFrame)  // 30000/1001 frames a second
        } else {
            self.init(nanoseconds: 1_000_000_000, ticks: UInt64(max(framesPerSecond, 1)) * perFrame)
        }
    }

    /// How long `span` lasts, to the nanosecond below (`Int64.max` past it).
    /// - Thread: any.
    public func duration(of span: Tick) -> HostDuration {
        let nanoseconds = Tick.scaled(span.units, by: self.nanoseconds, over: ticks * Tick.unitsPerTick)
        return HostDuration(nanoseconds: nanoseconds > UInt64(Int64.max) ? .max : Int64(nanoseconds))
    }

    /// The ticks `duration` spans, rounded down (none for a negative duration).
    /// - Thread: any.
    public func span(of duration: HostDuration) -> Tick {
        guard duration.nanoseconds > 0 else { return .zero }
        return Tick(units: Tick.scaled(UInt64(duration.nanoseconds), by: ticks * Tick.unitsPerTick, over: nanoseconds))
    }
}
