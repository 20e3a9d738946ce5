import Control

/// Why the remote cannot start, or `midihub remote` cannot say where it is, in one line.
///
/// - Thread: any (a plain value).
public enum RemoteError: Error, Equatable, CustomStringConvertible {
    /// The token file cannot be read or written, or holds no token.
    case tokenFile(path: String, reason: String)
    /// The HTTP port cannot be opened (taken, a privileged port, an unknown address).
    case listen(address: ListenAddress, reason: String)
    /// The file that says where the running remote listens cannot be written or read.
    case infoFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .tokenFile(let path, let reason):
            "cannot use the remote's token file \(path): \(reason) (fix: make its folder writable, or delete the file for a new token)"
        case .listen(let address, let reason):
            "cannot serve the remote on \(address): \(reason) (fix: give --remote another port, or stop what listens there)"
        case .infoFile(let path, let reason):
            "cannot use \(path): \(reason) (fix: check that the control socket's folder is yours and writable)"
        }
    }
}
