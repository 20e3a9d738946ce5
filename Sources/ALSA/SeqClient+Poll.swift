internal import CALSA
import Glibc

extension SeqClient {
    /// What a wait for input found.
    ///
    /// - Thread: any (a plain value).
    public struct Readiness: Sendable {
        /// Input (the sequencer's or a watched descriptor's) is ready; `false` on timeout or signal.
        public let isReady: Bool
        /// The watched descriptors that are readable: only these need their signal cleared
        /// (empty when events already waited in alsa-lib's buffer and no `poll` was made).
        public let readable: [Int32]
        /// The sequencer itself has input (in alsa-lib's buffer or the kernel's): a
        /// `receivePending` now finds an event rather than making a `read` that finds none.
        public var sequencer = true
    }

    /// Waits until an event can be read, one of `alsoWatching` is readable, the timeout
    /// passes or a signal arrives.
    ///
    /// - Parameters:
    ///   - milliseconds: how long to wait at most; `-1` waits forever
    ///     (a signal still ends the wait).
    ///   - alsoWatching: other descriptors polled for `POLLIN` in the same wait, e.g. an
    ///     eventfd another thread signals when it has input for this one.
    /// - Thread: the owning thread.
    public func waitForInput(milliseconds: Int32, alsoWatching: [Int32] = []) throws(ALSAError) -> Readiness {
        try waitForInput(microseconds: Self.microseconds(milliseconds), alsoWatching: alsoWatching)
    }

    /// `waitForInput(milliseconds:alsoWatching:)` to the microsecond (`-1`: forever), for a
    /// thread whose timers are finer than a millisecond.
    /// - Thread: the owning thread.
    public func waitForInput(microseconds: Int64, alsoWatching: [Int32] = []) throws(ALSAError) -> Readiness {
        if snd_seq_event_input_pending(handle, 0) > 0 { return Readiness(isReady: true, readable: []) }
        return try poll(Int16(POLLIN), microseconds: microseconds, alsoWatching: alsoWatching)
    }

    /// Waits until the kernel accepts more output (the client's pool has room),
    /// the timeout passes or a signal arrives.
    /// - Returns: `true` when writable, `false` on timeout or signal.
    /// - Thread: the owning thread.
    public func waitUntilWritable(milliseconds: Int32) throws(ALSAError) -> Bool {
        try poll(Int16(POLLOUT), microseconds: Self.microseconds(milliseconds)).isReady
    }

    /// The descriptors to poll for `POLLIN` for this client's input, for a thread that waits
    /// on the sequencer beside sockets of its own (then reads with `receivePending`).
    /// - Thread: the owning thread.
    public var inputDescriptors: [Int32] {
        let count = snd_seq_poll_descriptors_count(handle, Int16(POLLIN))
        guard count > 0 else { return [] }
        var descriptors = [pollfd](repeating: pollfd(), count: Int(count))
        let filled = Int(snd_seq_poll_descriptors(handle, &descriptors, UInt32(count), Int16(POLLIN)))
        return descriptors.prefix(filled).map(\.fd)
    }

    /// A timeout in milliseconds as microseconds (`-1`, forever, stays `-1`).
    private static func microseconds(_ milliseconds: Int32) -> Int64 {
        milliseconds < 0 ? -1 : Int64(milliseconds) * 1000
    }

    private func poll(_ events: Int16, microseconds: Int64, alsoWatching: [Int32] = []) throws(ALSAError) -> Readiness {
        let count = snd_seq_poll_descriptors_count(handle, events)
        guard count > 0 else { return Readiness(isReady: false, readable: []) }
        pollDescriptors.removeAll(keepingCapacity: true)
        for _ in 0..<Int(count) { pollDescriptors.append(pollfd()) }
        let filled = Int(snd_seq_poll_descriptors(handle, &pollDescriptors, UInt32(count), events))
        pollDescriptors.removeLast(Int(count) - filled)
        for fd in alsoWatching { pollDescriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = midihub_poll_microseconds(&pollDescriptors, nfds_t(pollDescriptors.count), microseconds)
        if ready < 0 {
            if errno == EINTR { return Readiness(isReady: false, readable: []) }
            throw ALSAError(function: "poll", code: -errno)
        }
        var watched: [Int32] = []  // allocates only when a watched descriptor is readable
        for descriptor in pollDescriptors[filled...] where descriptor.revents & Int16(POLLIN) != 0 { watched.append(descriptor.fd) }
        var readiness = Readiness(isReady: ready > 0, readable: watched)
        readiness.sequencer = pollDescriptors[..<filled].contains { $0.revents != 0 }
        return readiness
    }
}
