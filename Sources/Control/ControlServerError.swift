import Glibc

/// Why `ControlServer.start()` failed.
///
/// - Thread: any (a plain value).
public enum ControlServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another daemon holds the socket's lock and serves the socket.
    case alreadyRunning(socket: String)
    /// The socket directory exists but is not a private directory of this user.
    case unsafeDirectory(String, reason: String)
    /// A system call on the directory, lock or socket failed.
    case system(SocketError)

    /// One line naming the problem.
    public var problem: String {
        switch self {
        case .alreadyRunning(let socket):
            "a midihub daemon is already running on \(socket)"
        case .unsafeDirectory(let directory, let reason):
            "the control socket directory \(directory) is not private: \(reason)"
        case .system(let error):
            "cannot open the control socket: \(error)"
        }
    }

    /// What the user can do about it.
    public var fix: String? {
        switch self {
        case .alreadyRunning:
            "use the running daemon, or stop it first: systemctl --user stop midihub"
        case .unsafeDirectory(let directory, _):
            "remove it (rm -r \(directory)) or set XDG_RUNTIME_DIR to your private runtime directory"
        case .system(let error) where error.code == ENAMETOOLONG:
            "set XDG_RUNTIME_DIR to a shorter path"
        case .system:
            "check that XDG_RUNTIME_DIR names a directory you can write to"
        }
    }

    /// `problem` plus `(fix: …)`.
    public var description: String {
        guard let fix else { return problem }
        return "\(problem) (fix: \(fix))"
    }
}

