internal import CALSA
import Glibc

extension SeqClient {
    /// Waits up to `milliseconds` for input and returns the next complete event,
    /// or `nil` when the wait ended first (timeout or a signal: check your stop
    /// flag and call again). `-1` waits until input or a signal.
    ///
    /// Ports created with a `timestampQueue` get events stamped with that queue's
    /// real time at arrival (`SeqTime.seconds`). To hear announcements, subscribe
    /// a destination port to `SeqAddress.systemAnnounce`.
    /// - Thread: the owning thread.
    public func receive(milliseconds: Int32) throws(ALSAError) -> SeqEvent? {
        guard try waitForInput(milliseconds: milliseconds) else { return nil }
        repeat {
            if let event = try readOne() { return event }
        } while snd_seq_event_input_pending(handle, 0) > 0
        return nil
    }

    /// Reads one event (from the buffer, or one read from the kernel); `nil` when it
    /// does not complete anything (a SysEx piece), on overrun, or when nothing was there.
    private func readOne() throws(ALSAError) -> SeqEvent? {
        var pointer: UnsafeMutablePointer<snd_seq_event_t>?
        let result = snd_seq_event_input(handle, &pointer)
        if result == -EAGAIN { return nil }
        if result == -ENOSPC {
            inputOverruns += 1
            return nil
        }
        try check("snd_seq_event_input", result)
        guard let pointer else { return nil }
        return SeqEventCodec.decode(pointer.pointee, sysEx: &sysExAssembler)
    }
}
