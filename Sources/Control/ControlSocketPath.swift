import Foundation
import Glibc

/// Where the daemon's control socket lives: `$XDG_RUNTIME_DIR/midihub/control.sock`,
/// or `/tmp/midihub-$UID/control.sock` when `XDG_RUNTIME_DIR` is unset or empty.
/// The directory is private to the user (mode 0700) and also holds `control.lock`,
/// which the running daemon keeps locked.
///
/// - Thread: any (a plain value).
public struct ControlSocketPath: Hashable, Sendable, CustomStringConvertible {
    /// The directory holding the socket, e.g. `/run/user/1000/midihub`.
    public var directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The path for this user and environment.
    public static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment, userID: uid_t = getuid()
    ) -> ControlSocketPath {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return ControlSocketPath(directory: runtime + "/midihub")
        }
        return ControlSocketPath(directory: "/tmp/midihub-\(userID)")
    }

    /// The socket, `<directory>/control.sock`.
    public var socket: String { directory + "/control.sock" }

    /// The lock file the running daemon holds, `<directory>/control.lock`.
    public var lockFile: String { directory + "/control.lock" }

    public var description: String { socket }

    /// Creates the directory with mode 0700, or checks that an existing one is a real
    /// directory owned by this user and makes its mode 0700.
    ///
    /// - Thread: any.
    func preparePrivateDirectory() throws(ControlServerError) {
        if mkdir(directory, 0o700) == 0 { return }
        guard errno == EEXIST else { throw .system(SocketError("mkdir", path: directory)) }
        var status = stat()
        guard lstat(directory, &status) == 0 else { throw .system(SocketError("lstat", path: directory)) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .unsafeDirectory(directory, reason: "it is not a directory")
        }
        guard status.st_uid == getuid() else {
            throw .unsafeDirectory(directory, reason: "it belongs to uid \(status.st_uid)")
        }
        if status.st_mode & 0o777 != 0o700, chmod(directory, 0o700) != 0 {
            throw .system(SocketError("chmod", path: directory))
        }
    }
}
