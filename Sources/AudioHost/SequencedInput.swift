import MIDICore
import RenderCore
import Synchronization

/// A sequenced event for the render thread: the absolute frame (frames rendered since the
/// driver started) where it takes effect, and the cut it was scheduled in.
///
/// - Thread: any (a plain value).
public struct SequencedEvent: Sendable, BitwiseCopyable {
    public var event: RenderEvent
    public var frame: FramePosition
    public var cut: UInt32
}

/// Where the hub's transport hands an `AudioDriver` the events of the song it plays, ahead
/// of time, each stamped with its exact frame: a lock-free single-producer ring, apart from
/// live input (so a song scheduled ahead never holds up a key played now).
///
/// The song's timeline comes the same way: points where the nodes' `HostSync` takes a new
/// course (playing starts or stops, the tempo or time signature changes).
///
/// `cut()` drops everything scheduled so far that has not played yet (pause, stop, seek, a
/// loop's end): the render thread skips events and points of an older cut.
///
/// - Thread: any: `push` and `cut` on the one producer thread (the daemon's owner); the render
///   thread reads.
public final class SequencedInput: Sendable {
    let ring: SPSCRing<SequencedEvent>
    let timeline: SPSCRing<TimelineEntry>
    let currentCut = Atomic<UInt32>(0)

    /// A timeline point for the render thread: from `frame` on, nodes see `host` moving on.
    struct TimelineEntry: BitwiseCopyable {
        var host: HostSync
        var frame: FramePosition
        var cut: UInt32
    }

    /// - Thread: control (allocates).
    public init(capacity: Int = 16_384) {
        ring = SPSCRing(minimumCapacity: capacity)
        timeline = SPSCRing(minimumCapacity: 256)
    }

    /// From absolute frame `frame` on, nodes see `host` (its position and rate are set there),
    /// moving on at its tempo; a `.stopped` host hands the timeline back to live playing.
    /// - Returns: false when the ring was full.
    /// - Thread: owner (the one producer thread: the daemon's transport).
    @discardableResult
    public func pushTimeline(_ host: HostSync, frame: FramePosition) -> Bool {
        timeline.push(TimelineEntry(host: host, frame: frame, cut: currentCut.load(ordering: .relaxed)))
    }

    /// Schedules a channel message for node `node` at absolute frame `frame`.
    /// - Returns: false when it is not a channel message or the ring was full.
    /// - Thread: owner (the one producer thread: the daemon's transport).
    @discardableResult
    public func push(_ message: MIDIMessage, node: UInt16, frame: FramePosition) -> Bool {
        guard let event = RenderEvent(message, node: node) else { return false }
        return push(event, frame: frame)
    }

    /// Schedules `event` (its `frame` is ignored) at absolute frame `frame`.
    /// - Returns: false when the ring was full.
    /// - Thread: owner (the one producer thread: the daemon's transport).
    @discardableResult
    public func push(_ event: RenderEvent, frame: FramePosition) -> Bool {
        ring.push(SequencedEvent(event: event, frame: frame, cut: currentCut.load(ordering: .relaxed)))
    }

    /// Drops what was pushed so far and has not played yet.
    /// - Thread: owner (the one producer thread: the daemon's transport).
    public func cut() {
        currentCut.add(1, ordering: .releasing)
    }

    /// Events dropped because the ring was full.
    /// - Thread: any.
    public var droppedCount: Int { ring.droppedCount }
}

/// Puts the sequenced events due in a block into the block's event buffer at their frame
/// offsets, on the render thread. An event due before the block (the producer was late)
/// lands at offset 0; one due later waits.
///
/// - Thread: render (no allocation).
struct SequencedTiming {
    /// An event popped before its block, kept for it.
    private var carried: SequencedEvent?
    /// A timeline point popped before its frame, kept for it.
    private var carriedPoint: SequencedInput.TimelineEntry?

    /// The last timeline point at or before `start` of the current cut, moved on to `start`
    /// (`nil` when none came since the last call).
    mutating func timeline(from input: SequencedInput, start: FramePosition, sampleRate: Double) -> HostSync? {
        let cut = input.currentCut.load(ordering: .acquiring)
        var latest: HostSync?
        while let next = carriedPoint ?? input.timeline.pop() {
            carriedPoint = nil
            guard next.cut == cut else { continue }
            guard next.frame <= start else {
                carriedPoint = next
                break
            }
            var host = next.host
            host.sampleRate = sampleRate
            host.samplePosition = next.frame.index
            latest = host.advanced(by: Int(start - next.frame))
        }
        return latest
    }

    /// Inserts the events due in `start ..< start + frames` into `buffer` (sorted by frame,
    /// as it stays).
    /// - Returns: events dropped because `buffer` was full.
    mutating func collect(from input: SequencedInput, start: FramePosition, frames: Int,
                          into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        let cut = input.currentCut.load(ordering: .acquiring)
        let end = start + Int64(frames)
        var dropped = 0
        while let next = carried ?? input.ring.pop() {
            carried = nil
            guard next.cut == cut else { continue }
            guard next.frame < end else {
                carried = next
                break
            }
            guard count < capacity else {
                dropped += 1
                continue
            }
            var event = next.event
            event.frame = next.frame.offset(inBlockAt: start)
            LiveEventTiming.insert(event, into: buffer, count: &count)
        }
        return dropped
    }
}
