/// A file's timing: tick ↔ seconds through its tempo changes, and bar/beat positions
/// through its time signatures (see `TempoMap+Bars.swift`).
///
/// Tempo and time-signature events are taken from all tracks (merged by tick; at
/// the same tick the later track wins). Without a tempo event at tick 0 the tempo
/// starts at 120 BPM (500000 µs per quarter); without a time signature at tick 0,
/// at 4/4.
///
/// With SMPTE division, time does not depend on tempo: seconds = ticks / (fps ×
/// ticks per frame), where 29 means 29.97 (drop-frame). Bars then use the initial
/// tempo's quarter length (`ticksPerQuarter`).
///
/// Seconds are `Double`; each tempo segment stores the exact seconds at its start,
/// so values at change points carry no accumulated drift from within segments.
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

    /// One stretch of constant seconds per tick.
    private struct Segment: Sendable {
        var tick: UInt64
        var seconds: Double
        var secondsPerTick: Double
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
            segments = Self.tempoSegments(tempos, ticksPerQuarter: Double(ticksPerQuarter))
        case .smpte(let framesPerSecond, let ticksPerFrame):
            let frameRate = framesPerSecond == 29 ? 29.97 : Double(framesPerSecond)
            let ticksPerSecond = max(frameRate * Double(ticksPerFrame), 1)
            let quarterSeconds = Double(tempos[0].microsecondsPerQuarter) / 1_000_000
            ticksPerQuarter = max(1, Int((quarterSeconds * ticksPerSecond).rounded()))
            segments = [Segment(tick: 0, seconds: 0, secondsPerTick: 1 / ticksPerSecond)]
        }
        meters = Meter.segments(for: signatures, ticksPerQuarter: UInt64(ticksPerQuarter))
    }

    /// Seconds from the start of the file to `tick`.
    ///
    /// - Thread: any.
    public func seconds(atTick tick: UInt64) -> Double {
        let segment = segments[Self.lastIndex(in: segments, atOrBefore: tick, key: \.tick)]
        return segment.seconds + Double(tick - segment.tick) * segment.secondsPerTick
    }

    /// Seconds from the start of the file to a fractional `tick` (0 for negative ticks).
    ///
    /// - Thread: any.
    public func seconds(atFractionalTick tick: Double) -> Double {
        let whole = tick <= 0 ? 0 : UInt64(min(tick, 1.8e19).rounded(.down))
        let segment = segments[Self.lastIndex(in: segments, atOrBefore: whole, key: \.tick)]
        return segment.seconds + (max(tick, 0) - Double(segment.tick)) * segment.secondsPerTick
    }

    /// The (fractional) tick reached after `seconds`; 0 for negative times.
    ///
    /// - Thread: any.
    public func tick(atSeconds seconds: Double) -> Double {
        let seconds = max(seconds, 0)
        let segment = segments[Self.lastIndex(in: segments, atOrBefore: seconds, key: \.seconds)]
        return Double(segment.tick) + (seconds - segment.seconds) / segment.secondsPerTick
    }

    private static func tempoSegments(_ tempos: [TempoChange], ticksPerQuarter: Double) -> [Segment] {
        var segments: [Segment] = []
        segments.reserveCapacity(tempos.count)
        for change in tempos {
            let seconds = segments.last.map { $0.seconds + Double(change.tick - $0.tick) * $0.secondsPerTick } ?? 0
            let secondsPerTick = Double(change.microsecondsPerQuarter) / (1_000_000 * ticksPerQuarter)
            segments.append(Segment(tick: change.tick, seconds: seconds, secondsPerTick: secondsPerTick))
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
    var tick: UInt64 { get }
}

/// A tempo from `tick` on.
///
/// - Thread: any (a plain value).
public struct TempoChange: Hashable, Sendable, TimedChange {
    public var tick: UInt64
    public var microsecondsPerQuarter: UInt32

    public init(tick: UInt64, microsecondsPerQuarter: UInt32) {
        self.tick = tick
        self.microsecondsPerQuarter = microsecondsPerQuarter
    }

    /// Quarter notes per minute.
    public var beatsPerMinute: Double { 60_000_000 / Double(microsecondsPerQuarter) }
}
