import Control
import Foundation
import Glibc

/// Where the running daemon's remote listens and where its token is: `remote.json` in the
/// control socket's private folder, written when the remote starts and removed when the
/// daemon stops (or starts without a remote), read by `midihub remote`.
///
///     {"host":"0.0.0.0","port":8080,"tokenFile":"/home/me/.local/state/midihub/remote-token"}
///
/// - Thread: any (a plain value; the file functions do blocking I/O).
public struct RemoteInfo: Codable, Equatable, Sendable {
    public var host: String
    public var port: Int
    public var tokenFile: String

    public init(address: ListenAddress, tokenFile: String) {
        host = address.host
        port = address.port
        self.tokenFile = tokenFile
    }

    public var address: ListenAddress { ListenAddress(host: host, port: port) }

    /// `<socket folder>/remote.json`.
    public static func path(in socket: ControlSocketPath) -> String {
        socket.directory + "/remote.json"
    }

    /// Writes the file (mode 0600) for the daemon serving at `socket`.
    /// - Throws: `RemoteError.infoFile`.
    public func write(for socket: ControlSocketPath) throws(RemoteError) {
        let path = Self.path(in: socket)
        do {
            let data = try JSONEncoder().encode(self)
            guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
                throw RemoteError.infoFile(path: path, reason: String(cString: strerror(errno)))
            }
        } catch let error as RemoteError {
            throw error
        } catch {
            throw .infoFile(path: path, reason: "\(error)")
        }
    }

    /// The file of the daemon serving at `socket`; `nil` when it serves no remote.
    /// - Throws: `RemoteError.infoFile` when the file is there but unreadable.
    public static func read(for socket: ControlSocketPath) throws(RemoteError) -> RemoteInfo? {
        let path = path(in: socket)
        guard let data = FileManager.default.contents(atPath: path) else {
            if access(path, F_OK) != 0 { return nil }
            throw .infoFile(path: path, reason: String(cString: strerror(errno)))
        }
        do {
            return try JSONDecoder().decode(RemoteInfo.self, from: data)
        } catch {
            throw .infoFile(path: path, reason: "it is not what midihub serve writes")
        }
    }

    /// Removes the file of the daemon serving at `socket`, if any.
    public static func remove(for socket: ControlSocketPath) {
        unlink(path(in: socket))
    }
}
