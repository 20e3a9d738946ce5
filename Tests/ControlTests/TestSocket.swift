import Foundation
import Glibc
import Synchronization
import Testing
import TestSupport

@testable import Control

/// A private runtime directory with a running server on a `FakeDaemon`; removed when released.
final class TestSocket {
    let runtimeDirectory: String
    let path: ControlSocketPath
    let daemon = FakeDaemon()
    /// What the server reported about clients it dropped or refused.
    let reports = Reports()
    private(set) var server: ControlServer?

    /// - Parameter holdingRequests: start as the daemon does (requests wait for `open(announcing:)`).
    init(start: Bool = true, holdingRequests: Bool = false, protocolVersion: Int = ControlProtocol.version,
         limits: ServerLimits = ServerLimits()) throws {
        var template = Array("/tmp/mhctl-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template) else { throw SocketError("mkdtemp") }
        runtimeDirectory = String(cString: directory)
        path = ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        if start {
            let server = ControlServer(
                path: path, handler: daemon, hello: HelloResult(protocolVersion: protocolVersion, version: "test"),
                limits: limits, report: { [reports] in reports.add($0) })
            try server.start(holdingRequests: holdingRequests)
            self.server = server
        }
    }

    deinit {
        server?.stopWithDeadline()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    func client() throws -> ControlClient {
        try ControlClient(path: path, timeout: 10)
    }

    func raw() throws -> RawConnection {
        try RawConnection(path: path.socket)
    }
}

/// Lines a server reported, kept for a test to read from any thread.
final class Reports: Sendable {
    private let lines = Mutex<[String]>([])

    func add(_ line: String) { lines.withLock { $0.append(line) } }

    var all: [String] { lines.withLock { $0 } }
}

extension ControlServer {
    /// `stop()`, which waits for the server thread to end; records a failure instead of
    /// hanging when it never does.
    func stopWithDeadline() {
        do {
            try onThread(message: "ControlServer.stop() did not return: the server thread never ended") { self.stop() }
        } catch {
            Issue.record(error)
        }
    }
}

/// A connection that writes and reads raw lines, for what `ControlClient` never sends.
final class RawConnection {
    let fd: Int32
    private var lines = LineSplitter(maxLength: 64 << 20)
    private var scratch = [UInt8](repeating: 0, count: 65536)

    init(path: String) throws {
        fd = try UnixSocket.connect(to: path)
        // Non-blocking, so that neither a write nor a read waits without a deadline.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close(fd) }

    /// Writes all of `bytes`; false when the server closed the connection.
    /// - Throws: `DeadlinePassed` when the server stops taking bytes.
    @discardableResult
    func write(_ bytes: [UInt8]) throws -> Bool {
        var sent = 0, closed = false
        try waitUntil({
            while sent < bytes.count {
                let count = UnixSocket.send(fd, bytes[sent...])
                if count < 0 { closed = true; return true }
                if count == 0 { return false }  // the socket is full: wait for the server to read
                sent += count
            }
            return true
        }, message: "the server took only \(sent) of \(bytes.count) bytes")
        return !closed
    }

    func send(_ line: String) throws {
        try write(Array((line + "\n").utf8))
    }

    /// The next line as a JSON object; `nil` at end of stream. Fails after 10 s.
    func readObject() throws -> [String: Any]? {
        guard let line = try readLine() else { return nil }
        return try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
    }

    func readLine() throws -> [UInt8]? {
        while true {
            if case .line(let line) = lines.next() { return line }
            guard try UnixSocket.waitReadable(fd, milliseconds: 10_000) else { throw SocketError("poll", code: ETIMEDOUT) }
            guard let count = UnixSocket.receive(fd, into: &scratch) else { continue }
            if count <= 0 { return nil }
            lines.append(scratch[0..<count])
        }
    }

    /// Sends a line and reads the line that answers it.
    func exchange(_ line: String) throws -> [String: Any]? {
        try send(line)
        return try readObject()
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
}
