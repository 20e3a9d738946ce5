import Control
import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import Synchronization

/// The web remote (docs/remote.md): an HTTP server on `address` that serves the page and,
/// at `/ws`, a WebSocket per browser bridged to a control-socket connection of its own
/// (`ControlBridge`). Every request needs the token (`RemoteAccess`). It runs on its own
/// event loop thread and reaches the hub only through the control socket. It logs nothing:
/// a request's URL holds the token.
///
/// - Thread: any (`start` and `stop` block until the server's tasks, on Swift's concurrency
///   pool, have started or ended: call them from a thread of one's own, as the daemon's main).
public final class RemoteServer: Sendable {
    /// Where the WebSocket is: `ws://HOST:PORT/ws?token=TOKEN`.
    public static let webSocketPath = "/ws"
    public let address: ListenAddress
    /// What the bridges hold of the daemon's lines.
    public let meter = BridgeMeter()
    private let socket: ControlSocketPath
    private let access: RemoteAccess
    private let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        var services: ServiceGroup
        var loops: MultiThreadedEventLoopGroup
        var finished: DispatchSemaphore
    }

    /// - Parameters:
    ///   - address: where to listen (port 0: one the system chooses, see `start`).
    ///   - socket: the daemon's control socket, which each WebSocket connects to.
    ///   - token: what every request must show.
    public init(address: ListenAddress, socket: ControlSocketPath, token: RemoteToken) {
        self.address = address
        self.socket = socket
        self.access = RemoteAccess(token: token)
    }

    deinit {
        stop()
    }

    /// Starts listening; returns where, with the port the system chose for port 0.
    /// - Throws: `RemoteError.listen` when the address cannot be bound.
    /// - Thread: any but the server's.
    @discardableResult
    public func start() throws(RemoteError) -> ListenAddress {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let outcome = Mutex<Result<ListenAddress, RemoteError>?>(nil)
        let ready = DispatchSemaphore(value: 0), finished = DispatchSemaphore(value: 0)
        let address = self.address
        let application = Application(
            router: router(),
            server: webSocketServer(),
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? address.port
                outcome.withLock { $0 = .success(ListenAddress(host: address.host, port: port)) }
                ready.signal()
            },
            eventLoopGroupProvider: .shared(loops),
            logger: Self.silent
        )
        let services = ServiceGroup(
            configuration: .init(services: [application], gracefulShutdownSignals: [], logger: Self.silent))
        Task.detached {
            var failure = "the server ended"
            do { try await services.run() } catch { failure = "\(error)" }
            let unstarted = outcome.withLock { outcome in
                guard outcome == nil else { return false }
                outcome = .failure(.listen(address: address, reason: failure))
                return true
            }
            if unstarted { ready.signal() }
            finished.signal()
        }
        ready.wait()
        let result = outcome.withLock { $0! }
        switch result {
        case .success:
            running.withLock { $0 = Running(services: services, loops: loops, finished: finished) }
        case .failure:
            finished.wait()
            try? loops.syncShutdownGracefully()
        }
        return try result.get()
    }

    /// Stops listening and closes every WebSocket; returns when the server is gone.
    /// Does nothing when not started.
    /// - Thread: any but the server's.
    public func stop() {
        guard let stopped = running.withLock({ running in defer { running = nil }; return running }) else { return }
        Task.detached { await stopped.services.triggerGracefulShutdown() }
        stopped.finished.wait()
        try? stopped.loops.syncShutdownGracefully()
    }

    /// HTTP/1 with the WebSocket at `/ws`, each bridged to the daemon, behind `HandshakeGate`.
    private func webSocketServer() -> HTTPServerBuilder {
        let bridge = ControlBridge(socket: socket, meter: meter)
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            ws: .init(maxFrameSize: ControlProtocol.maxRequestLength, autoPing: .disabled))
        return HTTPServerBuilder { [access] responder in
            GatedUpgradeChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: configuration) { request, channel, _ in
                    let uri = URI(request.path ?? "/")
                    let verdict = access.check(uri, origin: request.headerFields[.origin], host: request.authority,
                                               authorization: request.headerFields[.authorization], webSocket: true)
                    guard uri.path == Self.webSocketPath, verdict == .allowed else { return .dontUpgrade }
                    return .upgrade([:]) { inbound, outbound, _ in
                        try await bridge.run(inbound, outbound, on: channel.eventLoop)
                    }
                },
                access: access)
        }
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: AccessMiddleware(access: access))
        RemotePage.addRoutes(to: router)
        // Reached only by a request the WebSocket upgrade declined, with the token.
        router.get(RouterPath(Self.webSocketPath)) { _, _ in
            AccessMiddleware.refusal(.upgradeRequired, "this is the remote's WebSocket: open it with a WebSocket client",
                                     headers: [.upgrade: "websocket"])
        }
        return router
    }

    /// The server's logger: nothing, since a request's URL holds the token.
    private static let silent = Logger(label: "midihub-remote", factory: { _ in SwiftLogNoOpLogHandler() })
}
