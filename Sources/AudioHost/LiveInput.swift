import MIDICore
import RenderCore
import Sequencer

/// A live event and the moment it arrived (the monotonic clock).
///
/// - Thread: any (a plain value).
public struct LiveEvent: Sendable, BitwiseCopyable {
    public var event: RenderEvent
    public var arrival: HostTime

    public init(event: RenderEvent, arrival: HostTime) {
        self.event = event
        self.arrival = arrival
    }
}

/// Where live MIDI enters an `AudioDriver`: a lock-free single-producer ring of events
/// stamped with their arrival time. The render thread delivers each one at its arrival
/// time plus one block of latency (see `LiveEventTiming`).
///
/// One producer only (the MIDI input thread); a full ring drops and counts, never blocks.
/// Events that arrived together — a read's burst, a note and the parameter a controller
/// read with it moves — are staged and published at once, so the render thread takes all
/// of them into the same block: if the producer is held up past their block, they land
/// late together rather than apart.
///
/// - Thread: any: `push`, `stage`, `publish` on the one producer thread; counters from any thread.
public final class LiveInput: Sendable {
    let ring: SPSCRing<LiveEvent>

    /// - Thread: control (allocates).
    public init(capacity: Int = 4096) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// Queues `event` (its `frame` is ignored) as arrived at `arrival`.
    /// - Returns: false when the ring was full and the event was dropped.
    /// - Thread: any (the one producer thread: MIDI input, the owner in the daemon).
    @discardableResult
    public func push(_ event: RenderEvent, arrival: HostTime = .now()) -> Bool {
        ring.push(LiveEvent(event: event, arrival: arrival))
    }

    /// Stages `event` as arrived at `arrival`: the render thread sees it at the next
    /// `publish` or `push`, with everything staged before it.
    /// - Returns: false when the ring was full and the event was dropped.
    /// - Thread: any (the one producer thread: MIDI input, the owner in the daemon).
    @discardableResult
    public func stage(_ event: RenderEvent, arrival: HostTime) -> Bool {
        ring.stage(LiveEvent(event: event, arrival: arrival))
    }

    /// Stages a channel message for node `node`, as `stage(_:arrival:)`.
    /// - Returns: false when the message is not a channel message or the ring was full.
    /// - Thread: any (the one producer thread: MIDI input, the owner in the daemon).
    @discardableResult
    public func stage(_ message: MIDIMessage, node: UInt16 = 0, arrival: HostTime) -> Bool {
        guard let event = RenderEvent(message, node: node) else { return false }
        return stage(event, arrival: arrival)
    }

    /// Lets the render thread see every event staged since the last publish, at once.
    /// - Thread: any (the one producer thread: MIDI input, the owner in the daemon).
    public func publish() {
        ring.publish()
    }

    /// Queues a channel message for node `node` (0 = the instrument).
    /// - Returns: false when the message is not a channel message (the synth has no use
    ///   for it) or the ring was full.
    /// - Thread: any (the one producer thread: MIDI input, the owner in the daemon).
    @discardableResult
    public func push(_ message: MIDIMessage, node: UInt16 = 0, arrival: HostTime = .now()) -> Bool {
        guard let event = RenderEvent(message, node: node) else { return false }
        return push(event, arrival: arrival)
    }

    /// Events dropped because the ring was full.
    /// - Thread: any.
    public var droppedCount: Int { ring.droppedCount }
}
