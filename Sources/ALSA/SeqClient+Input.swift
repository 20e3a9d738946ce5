internal import CALSA
import Glibc

extension SeqClient {
    /// Waits up to `milliseconds` for input and returns the next complete event,
    /// or `nil` when the wait ended first (timeout or a signal: check your stop
    /// flag and call again). `-1` waits until input or a signal.
    ///
    /// Ports created with a `timestampQueue` get events stamped with that queue's
    /// real time at arrival (`SeqTime.realTime`). To hear announcements, subscribe
    /// a destination port to `SeqAddress.systemAnnounce`.
    /// - Thread: the owning thread.
    public func receive(milliseconds: Int32) throws(ALSAError) -> SeqEvent? {
        guard try waitForInput(milliseconds: milliseconds).isReady else { return nil }
        repeat {
            if case .event(let event, _) = try readOne() { return event }
        } while snd_seq_event_input_pending(handle, 0) > 0
        return nil
    }

    /// Returns the next complete event that has already arrived (in alsa-lib's buffer or
    /// the kernel's FIFO) without waiting; `nil` once nothing is pending. Call it in a loop
    /// after `waitForInput` to drain a burst: one `read` fetches many events, and no `poll`
    /// is made between them. Needs a non-blocking client.
    /// - Thread: the owning thread.
    public func receivePending() throws(ALSAError) -> SeqEvent? {
        try receivePendingAtPort()?.event
    }

    /// `receivePending`, with the port of this client the event was delivered to: for a
    /// client whose ports each stand for something of their own (a network session each).
    /// - Thread: the owning thread.
    public func receivePendingAtPort() throws(ALSAError) -> (event: SeqEvent, port: UInt8)? {
        while true {
            switch try readOne() {
            case .event(let event, let port): return (event, port)
            case .consumed: continue
            case .empty: return nil
            }
        }
    }

    /// Whether complete events wait in alsa-lib's buffer, so the next `receivePending` makes
    /// no `read` (events of one read arrived together, as far as the caller can tell).
    /// - Thread: the owning thread.
    public var hasBufferedInput: Bool {
        snd_seq_event_input_pending(handle, 0) > 0
    }

    private enum ReadResult {
        case event(SeqEvent, port: UInt8)
        /// Something was read that completes no event (a SysEx piece), or the FIFO overflowed.
        case consumed
        case empty
    }

    /// Reads one event (from the buffer, or one read from the kernel).
    private func readOne() throws(ALSAError) -> ReadResult {
        var pointer: UnsafeMutablePointer<snd_seq_event_t>?
        let result = snd_seq_event_input(handle, &pointer)
        if result == -EAGAIN { return .empty }
        if result == -ENOSPC {
            inputOverruns += 1
            return .consumed
        }
        try check("snd_seq_event_input", result)
        guard let pointer else { return .consumed }
        guard let event = SeqEventCodec.decode(pointer.pointee, sysEx: &sysExAssembler) else { return .consumed }
        return .event(event, port: pointer.pointee.dest.port)
    }
}
