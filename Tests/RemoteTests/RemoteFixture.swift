import Control
import Foundation
import Glibc
import Remote
import Testing

/// A control server on a `StubHub` in a private folder and the remote bridged to it, on
/// 127.0.0.1 at a port the system chose; both stopped and the folder removed when released.
final class RemoteFixture {
    let folder: String
    let socket: ControlSocketPath
    let control: ControlServer
    let remote: RemoteServer
    let token = RemoteToken.random()
    /// Where the remote listens, with its real port.
    let address: ListenAddress

    init() throws {
        var template = Array("/tmp/mhremote-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(.EIO) }
        folder = String(cString: made)
        socket = ControlSocketPath(directory: folder + "/midihub")
        control = ControlServer(path: socket, handler: StubHub(), version: "test")
        try control.start()
        remote = RemoteServer(address: ListenAddress(port: 0), socket: socket, token: token)
        address = try remote.start()
    }

    deinit {
        remote.stop()
        control.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A WebSocket to the remote as the page opens it.
    func webSocket() async throws -> RawWebSocket {
        try await RawWebSocket(address, token: token)
    }
}
