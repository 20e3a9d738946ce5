internal import CRtMidiSupport
import Glibc

/// An eventfd that wakes a poll loop: `signal()` makes `descriptor` readable until
/// `reset()`. Made for `JackMIDIInput`'s `onEvents` hook, which runs on JACK's process
/// thread: `signal` neither blocks nor allocates (one non-blocking 8-byte `write`).
///
/// - Thread: any.
public final class WakeupEvent: Sendable {
    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32

    /// - Throws: `JackMIDIError.rtMidi` naming `eventfd` when the kernel refuses one
    ///   (out of descriptors).
    public init() throws(JackMIDIError) {
        let descriptor = midihub_eventfd_open()
        guard descriptor >= 0 else {
            throw .rtMidi(operation: "creating an eventfd", message: String(cString: strerror(errno)))
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Makes `descriptor` readable. Never blocks, never allocates.
    /// - Thread: any, JACK's process thread included.
    public func signal() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(descriptor, $0.baseAddress, 8) }
    }

    /// Clears the signal; returns whether it was set.
    /// - Thread: any (the polling thread).
    @discardableResult
    public func reset() -> Bool {
        var count: UInt64 = 0
        return withUnsafeMutableBytes(of: &count) { read(descriptor, $0.baseAddress, 8) } == 8
    }
}
