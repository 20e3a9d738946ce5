import Control
import Remote

/// One HTTP/1.1 GET, as any client (or a page of another site) could send it; returns the
/// status and the head of the response, and the connection (a 101 leaves it open).
enum RawHTTP {
    struct Answer {
        var status: Int
        var head: String
        var connection: TCPConnection
    }

    static func get(_ target: String, at address: ListenAddress, headers: [String: String] = [:]) async throws -> Answer {
        let connection = try TCPConnection(to: address)
        var head = "GET \(target) HTTP/1.1\r\nHost: \(address)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        connection.write(Array((head + "\r\n").utf8))
        let text = String(decoding: try await connection.read(through: Array("\r\n\r\n".utf8)) ?? [], as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        return Answer(status: status, head: text, connection: connection)
    }

    /// The headers of a browser's WebSocket handshake from a page at `origin` (none: no browser).
    static func webSocketHeaders(origin: String?) -> [String: String] {
        var headers = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
                       "Sec-WebSocket-Version": "13"]
        headers["Origin"] = origin
        return headers
    }
}
