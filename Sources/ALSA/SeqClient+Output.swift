internal import CALSA
import Glibc
import MIDICore

/// When an outgoing event takes effect.
///
/// - Thread: any (a plain value).
public enum SeqSchedule: Hashable, Sendable {
    /// Delivered at once, bypassing queues.
    case direct
    /// Delivered when the queue reaches the tick.
    case tick(SeqQueue, UInt32)
    /// Delivered when the queue's real time reaches `time`.
    case realTime(SeqQueue, QueueTime)
}

extension SeqClient {
    /// Puts one message into the output buffer (nothing reaches the kernel until
    /// the buffer fills or `drainOutput` runs).
    ///
    /// - Parameters:
    ///   - destination: a port to address directly, or `nil` for every subscriber of `port`.
    /// - Returns: `false` when a non-blocking client's pool is full: nothing was
    ///   queued; wait with `waitUntilWritable` and call again.
    /// - Thread: the owning thread.
    public func output(_ message: MIDIMessage, from port: SeqPort, to destination: SeqAddress?,
                       schedule: SeqSchedule = .direct) throws(ALSAError) -> Bool {
        try SeqEventCodec.withEvent(for: message) { (event: inout snd_seq_event_t) throws(ALSAError) in
            address(&event, from: port, to: destination, schedule: schedule)
            return try output(&event)
        }
    }

    /// Hands one message to the kernel at once, past the output buffer (one `write`): for a
    /// single receiver, so that a receiver whose input is full refuses only its own message.
    ///
    /// - Returns: `false` when the kernel refused it for now (`EAGAIN`: the receiver's input
    ///   pool is full, or for a scheduled event midihub's own pool): nothing was sent; try
    ///   again later. Never waits.
    /// - Throws: `ALSAError` for any other refusal (the port is gone, a bad address).
    /// - Thread: the owning thread.
    public func outputNow(_ message: MIDIMessage, from port: SeqPort, to destination: SeqAddress,
                          schedule: SeqSchedule = .direct) throws(ALSAError) -> Bool {
        try SeqEventCodec.withEvent(for: message) { (event: inout snd_seq_event_t) throws(ALSAError) in
            address(&event, from: port, to: destination, schedule: schedule)
            let result = snd_seq_event_output_direct(handle, &event)
            if result == -EAGAIN || result == -ENOMEM { return false }
            try check("snd_seq_event_output_direct", result)
            return true
        }
    }

    /// Puts one message for a single receiver into the output buffer, to reach the kernel
    /// with the others in one `write` (`deliverBuffered`). Never writes: when the buffer
    /// cannot take it, nothing is buffered and the result is `nil` (deliver, then try again).
    ///
    /// - Returns: the bytes the message takes in the buffer, or `nil` when the buffer is full.
    /// - Throws: `ALSAError` when the message is larger than the whole buffer.
    /// - Thread: the owning thread.
    public func buffer(_ message: MIDIMessage, from port: SeqPort, to destination: SeqAddress,
                       schedule: SeqSchedule = .direct) throws(ALSAError) -> Int? {
        try SeqEventCodec.withEvent(for: message) { (event: inout snd_seq_event_t) throws(ALSAError) in
            address(&event, from: port, to: destination, schedule: schedule)
            let result = snd_seq_event_output_buffer(handle, &event)
            if result == -EAGAIN { return nil }
            try check("snd_seq_event_output_buffer", result)
            return Int(snd_seq_event_length(&event))
        }
    }

    /// What `deliverBuffered` did.
    public enum BufferedDelivery: Equatable, Sendable {
        /// The kernel took every buffered message.
        case delivered
        /// The kernel took the messages before the one it refused and stopped there;
        /// `remaining` bytes of the buffer, from the refused one on, were not sent and stay
        /// in it. `receiverFull`: the refusal was for room (`EAGAIN`: that receiver's input
        /// is full, or for a scheduled message midihub's own pool); otherwise the
        /// destination is gone.
        case stopped(remaining: Int, receiverFull: Bool)
    }

    /// Hands the buffered messages to the kernel in one `write`. The kernel delivers them in
    /// order and stops at the first it refuses, so a full receiver refuses its own message
    /// and nothing before it; the caller decides what becomes of the rest
    /// (`dropBufferedOutput`, then buffer them again). Never waits.
    /// - Thread: the owning thread.
    public func deliverBuffered() -> BufferedDelivery {
        let result = snd_seq_drain_output(handle)
        let remaining = Int(snd_seq_event_output_pending(handle))
        guard result != 0, remaining > 0 else { return .delivered }
        return .stopped(remaining: remaining, receiverFull: result > 0 || result == -EAGAIN || result == -ENOMEM)
    }

    /// Discards what the output buffer still holds (nothing of it reaches the kernel).
    /// - Thread: the owning thread.
    public func dropBufferedOutput() {
        snd_seq_drop_output_buffer(handle)
    }

    /// How many more events the client `client`'s input can hold now, and the size of its
    /// input pool; `nil` for a kernel client (a device's port: it has no input pool to fill).
    /// One `ioctl`: the kernel's own count, so a sender can hold back before the receiver's
    /// input overflows (the kernel empties a receiver's whole input the next time it reads
    /// after any refusal).
    /// - Thread: the owning thread.
    public func inputRoom(ofClient client: UInt8) throws(ALSAError) -> (free: Int, size: Int)? {
        var size: Int32 = 0
        let free = try check("SNDRV_SEQ_IOCTL_GET_CLIENT_POOL", midihub_seq_client_input_room(handle, Int32(client), &size))
        return size > 0 ? (Int(free), Int(size)) : nil
    }

    /// Puts a tempo change for `queue` into the output buffer, to take effect at
    /// `schedule` (a tick on the same queue, or at once).
    /// - Returns: `false` when the pool is full, as `output(_:from:to:schedule:)`.
    /// - Thread: the owning thread.
    public func outputTempo(_ microsecondsPerQuarter: UInt32, for queue: SeqQueue, from port: SeqPort,
                            schedule: SeqSchedule) throws(ALSAError) -> Bool {
        var event = snd_seq_event_t()
        midihub_seq_ev_clear(&event)
        midihub_seq_ev_set_queue_tempo(&event, queue.id, Int32(clamping: microsecondsPerQuarter))
        address(&event, from: port, to: .systemTimer, schedule: schedule)
        return try output(&event)
    }

    /// Sends one message at once and waits until it has left the output buffer.
    /// - Thread: the owning thread.
    public func send(_ message: MIDIMessage, from port: SeqPort, to destination: SeqAddress?) throws(ALSAError) {
        while try !output(message, from: port, to: destination) {
            _ = try waitUntilWritable(milliseconds: 100)
        }
        try drainOutputBlocking()
    }

    /// Hands the output buffer to the kernel as far as it takes it.
    /// - Returns: `true` when the buffer is empty, `false` when bytes remain
    ///   (non-blocking client with a full pool: wait with `waitUntilWritable`).
    /// - Thread: the owning thread.
    public func drainOutput() throws(ALSAError) -> Bool {
        let remaining = snd_seq_drain_output(handle)
        if remaining == -EAGAIN { return false }
        return try check("snd_seq_drain_output", remaining) == 0
    }

    /// Drains the whole output buffer, waiting for room as needed.
    /// - Thread: the owning thread.
    public func drainOutputBlocking() throws(ALSAError) {
        while try !drainOutput() {
            _ = try waitUntilWritable(milliseconds: 100)
        }
    }

    private func address(_ event: inout snd_seq_event_t, from port: SeqPort, to destination: SeqAddress?,
                         schedule: SeqSchedule) {
        midihub_seq_ev_set_source(&event, port.address.port)
        if let destination {
            midihub_seq_ev_set_dest(&event, destination.client, destination.port)
        } else {
            midihub_seq_ev_set_subs(&event)
        }
        switch schedule {
        case .direct:
            midihub_seq_ev_set_direct(&event)
        case .tick(let queue, let tick):
            midihub_seq_ev_schedule_tick(&event, queue.id, 0, tick)
        case .realTime(let queue, let time):
            let nanoseconds = UInt64(max(0, time.sinceOrigin.nanoseconds))
            midihub_seq_ev_schedule_real(&event, queue.id, UInt32(clamping: nanoseconds / 1_000_000_000),
                                         UInt32(nanoseconds % 1_000_000_000))
        }
    }

    private func output(_ event: inout snd_seq_event_t) throws(ALSAError) -> Bool {
        let result = snd_seq_event_output(handle, &event)
        if result == -EAGAIN { return false }
        try check("snd_seq_event_output", result)
        return true
    }
}
