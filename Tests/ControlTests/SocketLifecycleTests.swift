import Foundation
import Glibc
import Testing

@testable import Control

@Suite("Socket path, modes, stale sockets, a second daemon")
struct SocketLifecycleTests {
    @Test func pathFollowsXDGRuntimeDirOrFallsBackToTmp() {
        #expect(ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], userID: 1000).socket
            == "/run/user/1000/midihub/control.sock")
        #expect(ControlSocketPath.resolve(environment: [:], userID: 1000).socket == "/tmp/midihub-1000/control.sock")
        #expect(ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": ""], userID: 7).socket
            == "/tmp/midihub-7/control.sock")
    }

    @Test func socketIs0600AndDirectoryIs0700() throws {
        let socket = try TestSocket()
        #expect(try mode(of: socket.path.socket) == 0o600)
        #expect(try mode(of: socket.path.directory) == 0o700)
        #expect(try fileType(of: socket.path.socket) == S_IFSOCK)
    }

    @Test func existingDirectoryIsMadePrivate() throws {
        let socket = try TestSocket(start: false)
        #expect(mkdir(socket.path.directory, 0o755) == 0)
        let server = ControlServer(path: socket.path, handler: socket.daemon)
        try server.start()
        defer { server.stopWithDeadline() }
        #expect(try mode(of: socket.path.directory) == 0o700)
    }

    @Test func aFileInPlaceOfTheDirectoryIsRefused() throws {
        let socket = try TestSocket(start: false)
        #expect(FileManager.default.createFile(atPath: socket.path.directory, contents: Data()))
        let server = ControlServer(path: socket.path, handler: socket.daemon)
        #expect(throws: ControlServerError.unsafeDirectory(socket.path.directory, reason: "it is not a directory")) {
            try server.start()
        }
    }

    @Test func staleSocketFromADeadDaemonIsReplaced() throws {
        let socket = try TestSocket(start: false)
        #expect(mkdir(socket.path.directory, 0o700) == 0)
        close(try UnixSocket.listen(at: socket.path.socket))
        #expect(throws: ControlClientError.daemonNotRunning(socket: socket.path.socket)) { try socket.client() }

        let server = ControlServer(path: socket.path, handler: socket.daemon)
        try server.start()
        defer { server.stopWithDeadline() }
        #expect(try socket.client().ports().count == 2)
    }

    @Test func aSecondDaemonRefusesWhileTheFirstRuns() throws {
        let socket = try TestSocket()
        let second = ControlServer(path: socket.path, handler: socket.daemon)
        #expect(throws: ControlServerError.alreadyRunning(socket: socket.path.socket)) { try second.start() }
        #expect(try socket.client().ports().count == 2)
        let error = ControlServerError.alreadyRunning(socket: "/run/user/1000/midihub/control.sock")
        #expect(error.description == "a midihub daemon is already running on /run/user/1000/midihub/control.sock "
            + "(fix: use the running daemon, or stop it first: systemctl --user stop midihub)")
    }

    @Test func stopRemovesTheSocketAndFreesThePath() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        socket.server?.stopWithDeadline()
        #expect(access(socket.path.socket, F_OK) != 0)
        #expect(throws: ControlClientError.connectionClosed) { try client.ports() }
        #expect(throws: ControlClientError.daemonNotRunning(socket: socket.path.socket)) { try socket.client() }

        let again = ControlServer(path: socket.path, handler: socket.daemon)
        try again.start()
        defer { again.stopWithDeadline() }
        #expect(try socket.client().nodes().count == 1)
    }

    @Test func noDaemonIsDetectable() throws {
        let socket = try TestSocket(start: false)
        do {
            _ = try ControlClient(path: socket.path)
            Issue.record("connected without a daemon")
        } catch {
            #expect(error.isDaemonNotRunning)
            #expect(error.description.hasPrefix("the midihub daemon is not running"))
        }
    }

    private func status(of path: String) throws -> stat {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw SocketError("lstat", path: path) }
        return status
    }

    private func mode(of path: String) throws -> mode_t { try status(of: path).st_mode & 0o777 }

    private func fileType(of path: String) throws -> mode_t { try status(of: path).st_mode & S_IFMT }
}
