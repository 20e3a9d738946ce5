import Foundation
import Glibc

@testable import Control

/// A private runtime directory with a running server on a `FakeDaemon`; removed when released.
final class TestSocket {
    let runtimeDirectory: String
    let path: ControlSocketPath
    let daemon = FakeDaemon()
    private(set) var server: ControlServer?

    init(start: Bool = true, protocolVersion: Int = ControlProtocol.version) throws {
        var template = Array("/tmp/mhctl-XXXXXX".utf8CString)
        guard let directory = mkdtemp(&template) else { throw SocketError("mkdtemp") }
        runtimeDirectory = String(cString: directory)
        path = ControlSocketPath.resolve(environment: ["XDG_RUNTIME_DIR": runtimeDirectory])
        if start {
            let server = ControlServer(
                path: path, handler: daemon, hello: HelloResult(protocolVersion: protocolVersion, version: "test"))
            try server.start()
            self.server = server
        }
    }

    deinit {
        server?.stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    func client() throws -> ControlClient {
        try ControlClient(path: path, timeout: 10)
    }

    func raw() throws -> RawConnection {
        try RawConnection(path: path.socket)
    }
}

/// A connection that writes and reads raw lines, for what `ControlClient` never sends.
final class RawConnection {
    let fd: Int32
    private var lines = LineSplitter(maxLength: 64 << 20)
    private var scratch = [UInt8](repeating: 0, count: 65536)

    init(path: String) throws {
        fd = try UnixSocket.connect(to: path)
    }

    deinit { close(fd) }

    /// Writes all of `bytes`; false when the server closed the connection.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = UnixSocket.send(fd, bytes[sent...])
            if count < 0 { return false }
            sent += count
        }
        return true
    }

    func send(_ line: String) {
        write(Array((line + "\n").utf8))
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
        send(line)
        return try readObject()
    }
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
}
