import Foundation
import Glibc
import Synchronization

/// The daemon's control socket: listens on `path.socket`, serves several clients at
/// once on one thread of its own, hands requests to a `ControlHandler` and fans
/// published events out to subscribers.
///
/// Start-up makes the directory private (0700), takes `control.lock` (a second daemon
/// fails with `alreadyRunning`; the kernel releases the lock when a daemon dies, even
/// by `kill -9`), removes a stale socket left by a dead daemon, and binds the socket
/// with mode 0600.
///
/// - Thread: any (`start`, `stop` and `publish` may be called from any thread).
public final class ControlServer: Sendable {
    public let path: ControlSocketPath
    private let responder: Responder
    private let limits: ServerLimits
    private let report: @Sendable (String) -> Void
    private let running = Mutex<Running?>(nil)

    private struct Running {
        var lockFD: Int32
        var inbox: EventInbox
        var finished: DispatchSemaphore
    }

    /// - Parameters:
    ///   - path: where to listen; `ControlSocketPath.resolve()` by default.
    ///   - handler: answers the requests, on the server's thread.
    ///   - version: the daemon's software version, reported by `hello`.
    ///   - report: told, on the server's thread, each time a client is dropped or refused
    ///     (`ServerLimits`), in one line.
    public convenience init(path: ControlSocketPath = .resolve(), handler: any ControlHandler, version: String? = nil,
                            report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.init(path: path, handler: handler, hello: HelloResult(version: version), report: report)
    }

    /// `hello` answers `hello`; tests give another protocol version and other limits here.
    init(path: ControlSocketPath, handler: any ControlHandler, hello: HelloResult, limits: ServerLimits = ServerLimits(),
         report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.path = path
        self.responder = Responder(handler: handler, hello: hello)
        self.limits = limits
        self.report = report
    }

    deinit {
        stop()
    }

    /// Opens the socket and starts serving; returns once clients can connect.
    /// Does nothing when already started.
    ///
    /// - Parameter holdingRequests: accept clients but leave their requests unanswered until
    ///   `open(announcing:)` (the daemon takes the socket first thing as it starts, so a
    ///   second daemon fails before touching anything, and a client that connects early
    ///   waits for a daemon that serves instead of racing its start).
    /// - Thread: any.
    public func start(holdingRequests: Bool = false) throws(ControlServerError) {
        try running.withLock { (running) throws(ControlServerError) in
            guard running == nil else { return }
            try path.preparePrivateDirectory()
            let lockFD = try takeLock()
            do throws(ControlServerError) {
                running = try serve(lockFD: lockFD, holdingRequests: holdingRequests)
            } catch {
                close(lockFD)
                throw error
            }
        }
    }

    /// Stops serving: closes every client and the socket, removes the socket file and
    /// releases the lock. Waits for the server thread to end.
    ///
    /// - Thread: any but control (a handler must not stop its own server).
    public func stop() {
        guard let stopped = running.withLock({ running in defer { running = nil }; return running }) else { return }
        stopped.inbox.requestStop()
        stopped.finished.wait()
        unlink(path.socket)
        close(stopped.lockFD)
    }

    /// Answers the requests held since `start(holdingRequests: true)`, then sends `event` to
    /// every subscriber whose filter admits it — those whose `subscribe` was held too.
    ///
    /// - Thread: any but render.
    public func open(announcing event: ControlEvent) {
        guard let inbox = running.withLock({ $0?.inbox }), let line = try? JSONLine.encode(event) else { return }
        inbox.open(announcing: event.kind, line: line)
    }

    /// Sends an event to every subscriber whose filter admits it. Never blocks on a
    /// client: the event is queued for the server thread, and a subscriber that reads
    /// too slowly misses events (see `ControlProtocol.maxQueuedEventBytes`) and is told
    /// how many with a `dropped` event. Does nothing when the server is not running.
    ///
    /// - Thread: any but render (it encodes JSON and takes a lock).
    public func publish(_ event: ControlEvent) {
        guard let inbox = running.withLock({ $0?.inbox }), let line = try? JSONLine.encode(event) else { return }
        inbox.post(event.kind, line: line)
    }

    private func takeLock() throws(ControlServerError) -> Int32 {
        let fd = Glibc.open(path.lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .system(SocketError("open", path: path.lockFile)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = SocketError("flock", path: path.lockFile)
            close(fd)
            throw error.code == EWOULDBLOCK ? .alreadyRunning(socket: path.socket) : .system(error)
        }
        return fd
    }

    /// With the lock held, any socket file left is stale: remove it, bind a new one, start the thread.
    private func serve(lockFD: Int32, holdingRequests: Bool) throws(ControlServerError) -> Running {
        if unlink(path.socket) != 0, errno != ENOENT {
            throw .system(SocketError("unlink", path: path.socket))
        }
        do throws(SocketError) {
            let inbox = try EventInbox()
            let listener = try UnixSocket.listen(at: path.socket)
            let finished = DispatchSemaphore(value: 0)
            let loop = ServerLoop(listener: listener, inbox: inbox, responder: responder, limits: limits,
                                  holdingRequests: holdingRequests, report: report)
            let thread = Thread {
                loop.run()
                close(listener)
                finished.signal()
            }
            thread.name = "midihub-control"
            thread.start()
            return Running(lockFD: lockFD, inbox: inbox, finished: finished)
        } catch {
            throw .system(error)
        }
    }
}
