internal import CALSA
import Glibc

extension SeqClient {
    /// Waits until an event can be read, the timeout passes or a signal arrives.
    ///
    /// - Parameter milliseconds: how long to wait at most; `-1` waits forever
    ///   (a signal still ends the wait).
    /// - Returns: `true` when input is ready, `false` on timeout or signal.
    /// - Thread: the owning thread.
    public func waitForInput(milliseconds: Int32) throws(ALSAError) -> Bool {
        if snd_seq_event_input_pending(handle, 0) > 0 { return true }
        return try poll(Int16(POLLIN), milliseconds: milliseconds)
    }

    /// Waits until the kernel accepts more output (the client's pool has room),
    /// the timeout passes or a signal arrives.
    /// - Returns: `true` when writable, `false` on timeout or signal.
    /// - Thread: the owning thread.
    public func waitUntilWritable(milliseconds: Int32) throws(ALSAError) -> Bool {
        try poll(Int16(POLLOUT), milliseconds: milliseconds)
    }

    private func poll(_ events: Int16, milliseconds: Int32) throws(ALSAError) -> Bool {
        let count = snd_seq_poll_descriptors_count(handle, events)
        guard count > 0 else { return false }
        var fds = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = snd_seq_poll_descriptors(handle, &fds, UInt32(count), events)
        let ready = Glibc.poll(&fds, nfds_t(filled), milliseconds)
        if ready < 0 {
            if errno == EINTR { return false }
            throw ALSAError(function: "poll", code: -errno)
        }
        return ready > 0
    }
}
