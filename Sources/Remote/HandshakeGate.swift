import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The HTTP connection with the WebSocket upgrade, behind a gate: a handshake that
/// `RemoteAccess` refuses is answered 401 or 403 here, before the upgrade handler (which
/// would answer any declined handshake 400), and the connection closed. (The upgrade
/// checks the same again: the gate only chooses the status.)
///
/// - Thread: the connection's event loop (`setup`), then async (`handle`).
struct GatedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let access: RemoteAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            typealias Upgrader = NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>
            let upgrader = try pipeline.handler(type: Upgrader.self)
            try pipeline.addHandler(HandshakeGate(access: access), position: .before(upgrader))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Passes every request on but a refused WebSocket handshake, which it answers itself; it
/// leaves the pipeline once a handshake passes (WebSocket frames follow, not HTTP).
/// - Thread: the connection's event loop.
final class HandshakeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let access: RemoteAccess
    /// A handshake was refused: the rest of its request is dropped.
    private var refused = false

    init(access: RemoteAccess) {
        self.access = access
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard case .head(let head) = unwrapInboundIn(data),
            head.headers["upgrade"].contains(where: { $0.lowercased() == "websocket" })
        else { return context.fireChannelRead(data) }
        let verdict = access.check(
            URI(head.uri), origin: head.headers.first(name: "origin"), host: head.headers.first(name: "host"),
            authorization: head.headers.first(name: "authorization"), webSocket: true)
        guard verdict != .allowed else {
            context.fireChannelRead(data)
            return context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
        refused = true
        let refusal = Refusal(verdict)
        let body = ByteBuffer(string: "midihub: \(refusal.text)\n")
        let headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", "\(body.readableBytes)"),
                                   ("Connection", "close")])
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .init(statusCode: refusal.status),
                                                             headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
