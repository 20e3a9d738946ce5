import Glibc
import RenderCore

/// A joinable POSIX thread running one closure: the render thread of an `AudioDriver`, a
/// `DeviceThread` (an audio input's capture, another sound card's writer). (Foundation's
/// `Thread` cannot be joined; each needs to know the thread is done before it closes its device.)
///
/// - Thread: control (start and join).
final class JoinableThread {
    private let thread: pthread_t

    /// Starts `body` on a new thread named `name` (at most 15 bytes: what `top -H` and
    /// `/proc/PID/task/TID/comm` show).
    /// - Throws: `RenderThreadError` when the system refuses a new thread.
    init(name: String, body: @escaping @Sendable () -> Void) throws(RenderThreadError) {
        final class Box {
            let name: String
            let body: @Sendable () -> Void
            init(name: String, body: @escaping @Sendable () -> Void) { (self.name, self.body) = (name, body) }
        }
        let context = Unmanaged.passRetained(Box(name: name, body: body)).toOpaque()
        var created = pthread_t()
        let result = pthread_create(&created, nil, { raw in
            let box = Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue()
            ThreadName.setForCurrentThread(box.name)
            box.body()
            return nil
        }, context)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(context).release()
            throw RenderThreadError(code: result)
        }
        thread = created
    }

    /// Waits until the thread's closure has returned.
    func join() {
        pthread_join(thread, nil)
    }
}

/// The system refused to start the render thread (`pthread_create`).
///
/// - Thread: any (a plain value).
public struct RenderThreadError: Error, Equatable, CustomStringConvertible {
    public var code: Int32

    public var description: String {
        "cannot start the render thread (pthread_create: \(String(cString: strerror(code))))"
    }
}
