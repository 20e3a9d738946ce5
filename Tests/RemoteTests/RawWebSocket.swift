import Control
import Remote

/// A WebSocket client as a browser speaks it (RFC 6455): the handshake with the page's own
/// `Origin` and the token in the URL, masked text frames out, text frames in (fragments
/// joined), and the close frame's code. It reads only when asked: a test that does not call
/// `next` is a browser too busy to read.
final class RawWebSocket {
    private let connection: TCPConnection
    /// The code of the close frame the server sent, once `next` returned `nil`.
    private(set) var closeCode: UInt16?

    /// Opens `/ws?token=TOKEN` from the page's own origin (`http://ADDRESS`).
    /// - Throws: `Refused` with the status when the server does not switch to WebSocket.
    init(_ address: ListenAddress, token: RemoteToken) async throws {
        let answer = try await RawHTTP.get("\(RemoteServer.webSocketPath)?token=\(token.text)", at: address,
                                     headers: RawHTTP.webSocketHeaders(origin: "http://\(address)"))
        guard answer.status == 101 else { throw Refused(status: answer.status) }
        connection = answer.connection
    }

    struct Refused: Error {
        var status: Int
    }

    func send(_ text: String) {
        send(opcode: 1, Array(text.utf8))
    }

    /// One frame, masked as a client's must be.
    func send(opcode: UInt8, _ payload: [UInt8]) {
        var frame: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: frame.append(0x80 | UInt8(payload.count))
        case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x6D, 0x69, 0x64, 0x69]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        connection.write(frame)
    }

    /// The next text message; `nil` once the server closed (`closeCode`).
    func next() async throws -> String? {
        var message: [UInt8] = []
        while let head = try await connection.read(2) {
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                guard let bytes = try await connection.read(2) else { return nil }
                length = bytes.reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127 {
                guard let bytes = try await connection.read(8) else { return nil }
                length = bytes.reduce(0) { $0 << 8 | Int($1) }
            }
            guard let payload = try await connection.read(length) else { return nil }
            switch head[0] & 0x0F {
            case 8:
                closeCode = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : 1005
                return nil
            case 0, 1:
                message += payload
                if head[0] & 0x80 != 0 { return String(decoding: message, as: UTF8.self) }
            default:
                continue  // ping, pong
            }
        }
        return nil
    }
}
