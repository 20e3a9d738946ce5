import MIDICore
/// The kernel's arrival stamps of the events on a port a queue stamps in real time
/// (`SeqClient.createPort(timestampQueue:)`), as a clock that never goes back.
///
/// The sequencer queue interpolates its time between timer interrupts, and the
/// interrupt then sets it by the timer's nominal period; when the interrupt is late
/// the stamp of the next event can fall a few microseconds behind the one before
/// it. Times that go backwards read as reordered events (in a listing, in a take), so
/// a stamp earlier than the last one is taken as the last one.
///
/// - Thread: the thread that reads the port (a plain value).
public struct ArrivalClock: Sendable {
    private var latest = QueueTime.distantPast

    public init() {}

    /// The arrival time of an event the kernel stamped `stamp` (the queue's real time).
    /// - Thread: the port's reader.
    public mutating func time(stampedAt stamp: QueueTime) -> QueueTime {
        latest = max(latest, stamp)
        return latest
    }

    /// The arrival time of an event stamped `stamp`; `nil` when it carries no real-time
    /// stamp (a port without timestamping, or one stamping in ticks).
    /// - Thread: the port's reader.
    public mutating func time(of stamp: SeqTime) -> QueueTime? {
        guard case .realTime(let time) = stamp else { return nil }
        return self.time(stampedAt: time)
    }
}
