/// Why a `ControlClient` call failed.
///
/// - Thread: any (a plain value).
public enum ControlClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No daemon listens on the socket (no socket file, or nobody accepts on it).
    /// The CLI works on its own in this case.
    case daemonNotRunning(socket: String)
    /// The daemon speaks another protocol version.
    case versionMismatch(daemon: Int, client: Int)
    /// The daemon refused the request.
    case rejected(ControlError)
    /// The daemon closed the connection.
    case connectionClosed
    /// No response within the time limit.
    case timedOut(seconds: Double)
    /// The daemon sent a line this client cannot read.
    case malformedLine(String)
    /// A system call on the socket failed.
    case system(SocketError)
    /// The socket is not this user's daemon: its folder is another user's (or others may
    /// write to it), or the program listening runs as another user (`SO_PEERCRED`).
    case untrustedSocket(socket: String, reason: String)

    /// True when no daemon runs, so the caller can do the work itself.
    public var isDaemonNotRunning: Bool {
        if case .daemonNotRunning = self { return true }
        return false
    }

    /// One line naming the problem.
    public var problem: String {
        switch self {
        case .daemonNotRunning(let socket):
            "the midihub daemon is not running (no one listens on \(socket))"
        case .versionMismatch(let daemon, let client):
            "the running daemon speaks control protocol \(daemon), this midihub speaks \(client)"
        case .rejected(let error):
            error.message
        case .connectionClosed:
            "the midihub daemon closed the connection"
        case .timedOut(let seconds):
            "the midihub daemon did not answer within \(seconds.compactText) s"
        case .malformedLine(let reason):
            "the midihub daemon sent an unreadable line: \(reason)"
        case .system(let error):
            "control socket: \(error)"
        case .untrustedSocket(let socket, let reason):
            "refusing the control socket \(socket): \(reason)"
        }
    }

    /// What the user can do about it, when known.
    public var fix: String? {
        switch self {
        case .daemonNotRunning:
            "start it: systemctl --user start midihub (or midihub serve)"
        case .versionMismatch:
            "restart the daemon with this version: systemctl --user restart midihub"
        case .rejected(let error):
            error.fix
        case .connectionClosed, .timedOut:
            "check the daemon's log: journalctl --user -u midihub"
        case .malformedLine:
            "run the daemon and the CLI from the same midihub version"
        case .system:
            nil
        case .untrustedSocket(let socket, _):
            "stop that program, remove the folder of \(socket), then start 'midihub serve' (or set XDG_RUNTIME_DIR)"
        }
    }

    /// `problem` plus `(fix: …)` when a fix is known.
    public var description: String {
        guard let fix else { return problem }
        return "\(problem) (fix: \(fix))"
    }
}

private extension Double {
    var compactText: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
