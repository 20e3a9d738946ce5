import Control
import Foundation
import Glibc
import Remote

/// A plain TCP connection to the remote, reads failing after 30 s without a byte (so that
/// no test can hang). Each read blocks a thread of its own, never one of Swift's pool,
/// which the server's tasks need.
final class TCPConnection {
    let fd: Int32
    /// Bytes read and not yet taken.
    private var buffer: [UInt8] = []

    init(to address: ListenAddress) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var server = sockaddr_in()
        server.sin_family = sa_family_t(AF_INET)
        server.sin_port = in_port_t(UInt16(address.port).bigEndian)
        inet_pton(AF_INET, address.host, &server.sin_addr)
        let connected = withUnsafePointer(to: &server) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func write(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// The next `count` bytes; `nil` when the peer closed first.
    func read(_ count: Int) async throws -> [UInt8]? {
        while buffer.count < count {
            guard try await fill() else { return nil }
        }
        defer { buffer.removeFirst(count) }
        return Array(buffer[0..<count])
    }

    /// Everything up to and with `delimiter`; `nil` when the peer closed first.
    func read(through delimiter: [UInt8]) async throws -> [UInt8]? {
        while true {
            if let end = buffer.indices.first(where: { buffer[$0...].starts(with: delimiter) }) {
                return try await read(end + delimiter.count)
            }
            guard try await fill() else { return nil }
        }
    }

    private func fill() async throws -> Bool {
        let bytes = try await receive(fd, waitingFor: "bytes from the remote")
        buffer.append(contentsOf: bytes)
        return !bytes.isEmpty
    }
}

/// What one `recv` on `fd` reads (empty at end of stream), on a thread of its own.
func receive(_ fd: Int32, waitingFor what: String) async throws -> [UInt8] {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            var scratch = [UInt8](repeating: 0, count: 65536)
            let count = recv(fd, &scratch, scratch.count, 0)
            if count < 0 {
                continuation.resume(throwing: DeadlinePassed(waitingFor: what))
            } else {
                continuation.resume(returning: Array(scratch[0..<count]))
            }
        }.start()
    }
}

/// A wait that never ended: what the test waited for.
struct DeadlinePassed: Error, CustomStringConvertible {
    var waitingFor: String
    var description: String { "waited 30 s for \(waitingFor)" }
}
