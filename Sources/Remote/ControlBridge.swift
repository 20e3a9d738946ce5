import Control
import HummingbirdWebSocket
import NIOCore
import NIOPosix

/// One browser's WebSocket carried over one connection of its own to the daemon's control
/// socket, as any control client's: each text frame goes out as one request line (a newline
/// inside it becomes a space, so a frame is one request), and each line the daemon sends,
/// response or event, comes back as one text frame. Subscriptions, error codes, the
/// coalescing of `parameter-changed` and the `dropped` events of a slow reader are the
/// control server's own (docs/control-protocol.md).
///
/// A slow browser holds up only its own bridge: its frames wait until the WebSocket takes
/// them, and meanwhile the bridge reads no more from the daemon — it holds at most
/// `maxBufferedBytes` and one line (`BridgeMeter`) — so the daemon's queue for this connection fills and it drops
/// events for it, as for any client that reads slowly. A frame over
/// `ControlProtocol.maxRequestLength` closes this WebSocket (1009, message too big).
///
/// - Thread: the WebSocket's event loop and Swift's concurrency pool (async).
struct ControlBridge: Sendable {
    let socket: ControlSocketPath
    let meter: BridgeMeter

    /// The reads from the daemon that may wait for the browser.
    static let readAhead = 4
    /// The most one read from the daemon takes.
    static let readSize = 64 << 10
    /// What one bridge holds at most, besides the line being put together: the reads waiting,
    /// one more that was under way when they filled up, and the one being sent.
    static let maxBufferedBytes = (readAhead + 2) * readSize

    /// Carries the WebSocket's frames to the daemon and back until either end closes.
    func run(_ inbound: WebSocketInboundStream, _ outbound: WebSocketOutboundWriter, on loop: any EventLoop) async throws {
        let account = meter.account()
        defer { account.close() }
        let connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            connection = try await connect(on: loop, counting: account)
        } catch {
            try await outbound.close(.unexpectedServerError, reason: "the hub's control socket is not there")
            return
        }
        try await connection.executeThenClose { lines, requests in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await Self.forwardRequests(from: inbound, to: requests, closing: outbound) }
                group.addTask { try await Self.forwardLines(from: lines, to: outbound, counting: account) }
                // Either end closing ends both.
                try await group.next()
                group.cancelAll()
            }
        }
    }

    private func connect(on loop: any EventLoop, counting account: BridgeMeter.Account) async throws
        -> NIOAsyncChannel<ByteBuffer, ByteBuffer>
    {
        let counter = account.counter()
        return try await ClientBootstrap(group: loop)
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelOption(.recvAllocator,
                           value: AdaptiveRecvByteBufferAllocator(minimum: 1024, initial: 16 << 10, maximum: Self.readSize))
            .connect(unixDomainSocketPath: socket.socket) { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(counter)
                return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                    wrappingChannelSynchronously: channel,
                    configuration: .init(backPressureStrategy: .init(lowWatermark: 1, highWatermark: Self.readAhead)))
            }
        }
    }

    /// Browser to daemon: one request line per text frame.
    private static func forwardRequests(from inbound: WebSocketInboundStream,
                                        to requests: NIOAsyncChannelOutboundWriter<ByteBuffer>,
                                        closing outbound: WebSocketOutboundWriter) async throws {
        for try await message in inbound.messages(maxSize: ControlProtocol.maxRequestLength) {
            guard case .text(let text) = message else {
                try await outbound.close(.unacceptableData, reason: "text frames only: one JSON request each")
                return
            }
            var line = ByteBuffer()
            line.reserveCapacity(text.utf8.count + 1)
            for byte in text.utf8 {
                line.writeInteger(byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") ? UInt8(ascii: " ") : byte)
            }
            line.writeInteger(UInt8(ascii: "\n"))
            try await requests.write(line)
        }
    }

    /// Daemon to browser: one text frame per line, each sent before more is read.
    private static func forwardLines(from lines: NIOAsyncChannelInboundStream<ByteBuffer>, to outbound: WebSocketOutboundWriter,
                                     counting account: BridgeMeter.Account) async throws {
        var pending = ByteBuffer()
        for try await var chunk in lines {
            pending.writeBuffer(&chunk)
            while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - pending.readerIndex
                let line = pending.readString(length: length) ?? ""
                pending.moveReaderIndex(forwardBy: 1)
                try await outbound.writeTextMessage(line)
                account.sent(length + 1)
            }
            guard pending.readableBytes <= ControlProtocol.maxResponseLength else {
                try await outbound.close(.messageTooLarge, reason: "the hub sent a line too long")
                return
            }
            pending.discardReadBytes()
        }
        try await outbound.close(.goingAway, reason: "the hub closed the connection")
    }
}
