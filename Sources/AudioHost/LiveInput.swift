import MIDICore
import RenderCore
import Sequencer

/// A live event and the moment it arrived (`MonotonicClock` nanoseconds).
///
/// - Thread: any (a plain value).
public struct LiveEvent: Sendable, BitwiseCopyable {
    public var event: RenderEvent
    public var arrival: UInt64

    public init(event: RenderEvent, arrival: UInt64) {
        self.event = event
        self.arrival = arrival
    }
}

/// Where live MIDI enters an `AudioDriver`: a lock-free single-producer ring of events
/// stamped with their arrival time. The render thread delivers each one at its arrival
/// time plus one block of latency (see `LiveEventTiming`).
///
/// One producer only (the MIDI input thread); a full ring drops and counts, never blocks.
///
/// - Thread: `push` on the one producer thread; counters from any thread.
public final class LiveInput: Sendable {
    let ring: SPSCRing<LiveEvent>

    /// - Thread: control (allocates).
    public init(capacity: Int = 4096) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// Queues `event` (its `frame` is ignored) as arrived at `arrival`.
    /// - Returns: false when the ring was full and the event was dropped.
    /// - Thread: the producer (MIDI input).
    @discardableResult
    public func push(_ event: RenderEvent, arrival: UInt64 = MonotonicClock.nanoseconds()) -> Bool {
        ring.push(LiveEvent(event: event, arrival: arrival))
    }

    /// Queues a channel message for node `node` (0 = the instrument).
    /// - Returns: false when the message is not a channel message (the synth has no use
    ///   for it) or the ring was full.
    /// - Thread: the producer (MIDI input).
    @discardableResult
    public func push(_ message: MIDIMessage, node: UInt16 = 0, arrival: UInt64 = MonotonicClock.nanoseconds()) -> Bool {
        guard let event = RenderEvent(message, node: node) else { return false }
        return push(event, arrival: arrival)
    }

    /// Events dropped because the ring was full.
    /// - Thread: any.
    public var droppedCount: Int { ring.droppedCount }
}
