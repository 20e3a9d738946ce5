import Glibc

/// A pipe that wakes a poll loop: `signal()` makes `descriptor` readable until `drain()`.
/// Both ends are non-blocking: a signal never waits, even when the loop is slow to drain.
///
/// - Thread: any: `signal` any; `drain` the polling thread.
public final class WakePipe: Sendable {
    /// The end to poll for `POLLIN`.
    public let descriptor: Int32
    private let writeEnd: Int32

    /// - Returns: nil when the system has no descriptors left.
    public init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        (descriptor, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// - Thread: control (the polling thread: the network thread, the OSC server's).
    public func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(descriptor, &bytes, bytes.count) > 0 {}
    }
}
