import Glibc

/// A failed system call on a socket, its path or its directory: the call, the path
/// when there is one, and `errno` with its `strerror` text.
///
/// - Thread: any (a plain value).
public struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed, e.g. `bind`.
    public var operation: String
    public var path: String?
    /// The `errno` value.
    public var code: Int32

    public init(_ operation: String, path: String? = nil, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// `strerror(code)`.
    public var message: String { String(cString: strerror(code)) }

    /// e.g. `bind /run/user/1000/midihub/control.sock: Permission denied`.
    public var description: String {
        "\(operation)\(path.map { " \($0)" } ?? ""): \(message)"
    }
}
