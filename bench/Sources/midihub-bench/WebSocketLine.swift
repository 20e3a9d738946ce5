import Foundation
import Glibc

/// The least WebSocket client the `remote-frame` rows need: one TCP connection to the remote
/// on loopback, the handshake, masked text frames out and unmasked text frames in (RFC 6455;
/// no fragments, no pings: the remote sends neither to a client that answers at once).
///
/// - Thread: one at a time (blocking reads and writes).
final class WebSocketLine {
    private let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Opens `ws://127.0.0.1:PORT/PATH_AND_QUERY` (no `Origin`: a client that is no browser).
    init(port: Int, pathAndQuery: String) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw BenchmarkError(description: "connect to 127.0.0.1:\(port): errno \(errno)") }
        var nodelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &nodelay, socklen_t(MemoryLayout<Int32>.size))
        try write(Array(("GET \(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8))
        let end = Array("\r\n\r\n".utf8)
        var headLength: Int?
        while headLength == nil {
            try fill()
            headLength = buffer.indices.dropLast(3).first { Array(buffer[$0..<$0 + 4]) == end }.map { $0 + 4 }
        }
        let head = String(decoding: buffer[0..<headLength!], as: UTF8.self)
        guard head.hasPrefix("HTTP/1.1 101") else {
            throw BenchmarkError(description: "the remote refused the WebSocket: \(head.prefix(40))")
        }
        buffer.removeSubrange(0..<headLength!)
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as one masked text frame.
    func send(_ text: String) throws {
        let payload = Array(text.utf8), mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        try write(frame)
    }

    /// The next text frame's text; blocks until it is there.
    func receive() throws -> String {
        while true {
            try need(2)
            var length = Int(buffer[1] & 0x7F), header = 2
            if length == 126 {
                try need(4)
                length = Int(buffer[2]) << 8 | Int(buffer[3])
                header = 4
            } else if length == 127 {
                try need(10)
                length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
                header = 10
            }
            try need(header + length)
            let opcode = buffer[0] & 0x0F
            let payload = buffer[header..<header + length]
            buffer.removeSubrange(0..<header + length)
            if opcode == 0x1 { return String(decoding: payload, as: UTF8.self) }
            if opcode == 0x8 { throw BenchmarkError(description: "the remote closed the WebSocket") }
        }
    }

    private func need(_ count: Int) throws {
        while buffer.count < count { try fill() }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = read(descriptor, &chunk, chunk.count)
        guard count > 0 else { throw BenchmarkError(description: "the remote's WebSocket ended (read \(count), errno \(errno))") }
        buffer += chunk[0..<count]
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw BenchmarkError(description: "write to the remote: errno \(errno)") }
            sent += count
        }
    }
}
