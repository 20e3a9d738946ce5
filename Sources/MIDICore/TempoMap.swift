/// A file's timing: ticks ↔ host time through its tempo changes, and bar/beat positions
/// through its time signatures (see `TempoMap+Bars.swift`).
///
/// Tempo and time-signature events are taken from all tracks (merged by tick; at
/// the same tick the later track wins). Without a tempo event at tick 0 the tempo
/// starts at 120 BPM (500000 µs per quarter); without a time signature at tick 0,
/// at 4/4.
///
/// With SMPTE division, time does not depend on tempo: seconds = ticks / (fps ×
/// ticks per frame), where 29 means 29.97 (NTSC's 30000/1001, drop-frame). Bars then use the initial
/// tempo's quarter length (`ticksPerQuarter`).
///
/// Times are whole nanoseconds (`HostDuration`) from the file's start, positions `Tick`s:
/// each tempo segment keeps its start to the nanosecond and its exact `TickRate`, and the
/// conversions are integer (no `Double` seconds in between), so a tick lands on the same
/// nanosecond however far into the song it is.
///
/// - Thread: any (an immutable value).
public struct TempoMap: Sendable {
    /// Ticks per quarter note: the file's PPQ division, or for SMPTE division the
    /// ticks in one quarter at the initial tempo (rounded, at least 1).
    public let ticksPerQuarter: Int
    /// Tempo changes in tick order, one per tick, always starting at tick 0.
    public let tempoChanges: [TempoChange]
    /// Time signatures in tick order, one per tick, always starting at tick 0.
    public let timeSignatures: [TimeSignatureChange]

    /// One stretch of one tempo: from `tick`, which falls at `start`, ticks go at `rate`.
    private struct Segment: Sendable {
        var tick: Tick
        var start: HostDuration
        var rate: TickRate
    }
    private let segments: [Segment]
    let meters: [Meter]

    /// Builds the map from the tempo and time-signature events of all of `file`'s tracks.
    ///
    /// - Thread: any.
    public init(file: MIDIFile) {
        var tempos: [TempoChange] = []
        var signatures: [TimeSignatureChange] = []
        for event in Self.timingEvents(of: file) {
            switch event.kind {
            case .meta(.tempo(let micros)) where micros > 0:
                Self.replacingAtSameTick(&tempos, with: TempoChange(tick: event.tick, microsecondsPerQuarter: micros))
            case .meta(.timeSignature(let numerator, let power, _, _)):
                Self.replacingAtSameTick(&signatures, with: TimeSignatureChange(tick: event.tick, numerator: numerator, denominatorPower: power))
            default:
                break
            }
        }
        if tempos.first?.tick != 0 { tempos.insert(TempoChange(tick: 0, microsecondsPerQuarter: 500_000), at: 0) }
        if signatures.first?.tick != 0 { signatures.insert(TimeSignatureChange(tick: 0, numerator: 4, denominatorPower: 2), at: 0) }
        tempoChanges = tempos
        timeSignatures = signatures

        switch file.division {
        case .ticksPerQuarter(let ticks):
            ticksPerQuarter = Int(max(ticks, 1))
            segments = Self.tempoSegments(tempos, ticksPerQuarter: ticksPerQuarter)
        case .smpte(let framesPerSecond, let ticksPerFrame):
            let frameRate = framesPerSecond == 29 ? 30_000.0 / 1_001 : Double(framesPerSecond)
            let ticksPerSecond = max(frameRate * Double(ticksPerFrame), 1)
            let quarterSeconds = Double(tempos[0].microsecondsPerQuarter) / 1_000_000
            ticksPerQuarter = max(1, Int((quarterSeconds * ticksPerSecond).rounded()))
            segments = [Segment(tick: 0, start: .zero, rate: TickRate(framesPerSecond: framesPerSecond, ticksPerFrame: ticksPerFrame))]
        }
        meters = Meter.segments(for: signatures, ticksPerQuarter: UInt64(ticksPerQuarter))
    }

    /// How long the file plays from its start to `tick`.
    ///
    /// - Thread: any.
    public func duration(at tick: Tick) -> HostDuration {
        let segment = segments[Self.lastIndex(in: segments, atOrBefore: tick, key: \.tick)]
        return segment.start + segment.rate.duration(of: tick - segment.tick)
    }

    /// The position reached `duration` after the file's start (its start for negative durations).
    ///
    /// - Thread: any.
    public func tick(after duration: HostDuration) -> Tick {
        let segment = segments[Self.lastIndex(in: segments, atOrBefore: duration, key: \.start)]
        return segment.tick + segment.rate.span(of: duration - segment.start)
    }

    private static func tempoSegments(_ tempos: [TempoChange], ticksPerQuarter: Int) -> [Segment] {
        var segments: [Segment] = []
        segments.reserveCapacity(tempos.count)
        for change in tempos {
            let start = segments.last.map { $0.start + $0.rate.duration(of: change.tick - $0.tick) } ?? .zero
            let rate = TickRate(microsecondsPerQuarter: change.microsecondsPerQuarter, ticksPerQuarter: ticksPerQuarter)
            segments.append(Segment(tick: change.tick, start: start, rate: rate))
        }
        return segments
    }

    /// Tempo and time-signature events of all tracks, ordered by tick, then track, then file order.
    private static func timingEvents(of file: MIDIFile) -> [TrackEvent] {
        var events: [(order: Int, event: TrackEvent)] = []
        for track in file.tracks {
            for event in track.events {
                switch event.kind {
                case .meta(.tempo), .meta(.timeSignature): events.append((events.count, event))
                default: continue
                }
            }
        }
        events.sort { ($0.event.tick, $0.order) < ($1.event.tick, $1.order) }
        return events.map(\.event)
    }

    /// Appends `change`, replacing the last entry when it has the same tick.
    private static func replacingAtSameTick<Change: TimedChange>(_ changes: inout [Change], with change: Change) {
        if changes.last?.tick == change.tick { changes.removeLast() }
        changes.append(change)
    }

    /// Index of the last element whose key is ≤ `value` (0 when none is); `elements`
    /// is sorted by key and starts at the smallest key.
    static func lastIndex<Element, Key: Comparable>(in elements: [Element], atOrBefore value: Key, key: (Element) -> Key) -> Int {
        var low = 0
        var high = elements.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if key(elements[middle]) <= value { low = middle } else { high = middle }
        }
        return low
    }
}

/// Something that happens at a tick: a tempo change or a time-signature change.
protocol TimedChange {
    var tick: Tick { get }
}

/// A tempo from `tick` on.
///
/// - Thread: any (a plain value).
public struct TempoChange: Hashable, Sendable, TimedChange {
    public var tick: Tick
    public var microsecondsPerQuarter: UInt32

    public init(tick: Tick, microsecondsPerQuarter: UInt32) {
        self.tick = tick
        self.microsecondsPerQuarter = microsecondsPerQuarter
    }

    /// Quarter notes per minute.
    public var beatsPerMinute: Double { 60_000_000 / Double(microsecondsPerQuarter) }
}
