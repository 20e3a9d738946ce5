internal import CALSA
import MIDICore

/// A sequencer queue owned by a `SeqClient`: a clock with a tempo that the kernel
/// uses to deliver scheduled events and to timestamp incoming ones.
///
/// - Thread: any (a plain value; use it with the client that made it).
public struct SeqQueue: Hashable, Sendable {
    public var id: Int32
}

/// Where a queue stands, from `SeqClient.status(of:)`.
public struct SeqQueueStatus: Hashable, Sendable {
    public var tick: UInt32
    /// The queue's real time (since it started).
    public var time: QueueTime
    /// Events still waiting in the queue.
    public var pendingEvents: Int
    public var isRunning: Bool
}

extension SeqClient {
    /// Allocates a new queue (stopped, 120 BPM, 96 PPQ until `setTempo`).
    /// - Thread: the owning thread.
    public func makeQueue(name: String) throws(ALSAError) -> SeqQueue {
        SeqQueue(id: try check("snd_seq_alloc_named_queue", snd_seq_alloc_named_queue(handle, name)))
    }

    /// Frees a queue; pending events on it are dropped.
    /// - Thread: the owning thread.
    public func free(_ queue: SeqQueue) throws(ALSAError) {
        try check("snd_seq_free_queue", snd_seq_free_queue(handle, queue.id))
    }

    /// Sets the queue's tempo (microseconds per quarter note) and resolution
    /// (ticks per quarter note). Set the resolution before the queue starts.
    /// - Thread: the owning thread.
    public func setTempo(_ queue: SeqQueue, microsecondsPerQuarter: UInt32, ticksPerQuarter: Int32) throws(ALSAError) {
        var tempo: OpaquePointer?
        try check("snd_seq_queue_tempo_malloc", snd_seq_queue_tempo_malloc(&tempo))
        defer { snd_seq_queue_tempo_free(tempo) }
        snd_seq_queue_tempo_set_tempo(tempo, microsecondsPerQuarter)
        snd_seq_queue_tempo_set_ppq(tempo, ticksPerQuarter)
        try check("snd_seq_set_queue_tempo", snd_seq_set_queue_tempo(handle, queue.id, tempo))
    }

    /// Starts (or restarts from zero) the queue now; sends the control event at once.
    /// - Thread: the owning thread.
    public func start(_ queue: SeqQueue) throws(ALSAError) {
        try check("snd_seq_start_queue", midihub_seq_start_queue(handle, queue.id))
        try drainOutputBlocking()
    }

    /// Stops the queue now; sends the control event at once.
    /// - Thread: the owning thread.
    public func stop(_ queue: SeqQueue) throws(ALSAError) {
        try check("snd_seq_stop_queue", midihub_seq_stop_queue(handle, queue.id))
        try drainOutputBlocking()
    }

    /// Removes this client's scheduled events still waiting in any queue, and
    /// empties its output buffer.
    /// - Thread: the owning thread.
    public func removePendingOutput() throws(ALSAError) {
        var remove: OpaquePointer?
        try check("snd_seq_remove_events_malloc", snd_seq_remove_events_malloc(&remove))
        defer { snd_seq_remove_events_free(remove) }
        snd_seq_remove_events_set_condition(remove, UInt32(SND_SEQ_REMOVE_OUTPUT))
        try check("snd_seq_drop_output", snd_seq_drop_output(handle))
        try check("snd_seq_remove_events", snd_seq_remove_events(handle, remove))
    }

    /// The queue's current position and how many events wait in it.
    /// - Thread: the owning thread.
    public func status(of queue: SeqQueue) throws(ALSAError) -> SeqQueueStatus {
        var status: OpaquePointer?
        try check("snd_seq_queue_status_malloc", snd_seq_queue_status_malloc(&status))
        defer { snd_seq_queue_status_free(status) }
        try check("snd_seq_get_queue_status", snd_seq_get_queue_status(handle, queue.id, status))
        let real = snd_seq_queue_status_get_real_time(status)!.pointee
        return SeqQueueStatus(
            tick: snd_seq_queue_status_get_tick_time(status),
            time: QueueTime(real),
            pendingEvents: Int(snd_seq_queue_status_get_events(status)),
            isRunning: snd_seq_queue_status_get_status(status) & 1 != 0)
    }
}

extension QueueTime {
    /// A queue time as ALSA gives it (`snd_seq_real_time_t`: seconds and nanoseconds).
    /// - Thread: any.
    init(_ real: snd_seq_real_time_t) {
        self.init(sinceOrigin: HostDuration(nanoseconds: Int64(real.tv_sec) * 1_000_000_000 + Int64(real.tv_nsec)))
    }
}
