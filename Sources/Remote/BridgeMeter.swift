import NIOCore
import Synchronization

/// What the remote's bridges hold of the daemon's lines: the bytes read from the control
/// sockets and not yet written to a WebSocket, now and at most so far. A slow browser stops
/// its bridge reading (`ControlBridge`), so the count stays bounded however much the daemon
/// publishes: it misses events, told with `dropped`, instead.
///
/// - Thread: any.
public final class BridgeMeter: Sendable {
    private let buffered = Atomic<Int>(0)
    private let peak = Atomic<Int>(0)

    public init() {}

    /// Bytes read from the daemon and not yet sent on, over every bridge.
    public var bufferedBytes: Int { buffered.load(ordering: .relaxed) }

    /// The most `bufferedBytes` has been since the server started.
    public var peakBufferedBytes: Int { peak.load(ordering: .relaxed) }

    private func add(_ count: Int) {
        let now = buffered.add(count, ordering: .relaxed).newValue
        _ = peak.max(now, ordering: .relaxed)
    }

    private func release(_ count: Int) {
        _ = buffered.subtract(count, ordering: .relaxed)
    }

    /// A new bridge's share of the count.
    func account() -> Account {
        Account(meter: self)
    }

    /// One bridge's bytes: counted as its control connection reads them, released as its
    /// WebSocket takes them, and the rest released when the bridge ends.
    /// - Thread: any.
    final class Account: Sendable {
        private let meter: BridgeMeter
        private let held = Atomic<Int>(0)

        init(meter: BridgeMeter) {
            self.meter = meter
        }

        /// Bytes read from the daemon.
        func read(_ count: Int) {
            _ = held.add(count, ordering: .relaxed)
            meter.add(count)
        }

        /// Bytes sent on to the browser.
        func sent(_ count: Int) {
            _ = held.subtract(count, ordering: .relaxed)
            meter.release(count)
        }

        /// The bridge ended: what it still held is gone.
        func close() {
            meter.release(held.exchange(0, ordering: .relaxed))
        }

        /// A handler that counts what the control connection reads, ahead of the bridge.
        func counter() -> ReadCounter {
            ReadCounter(account: self)
        }
    }

    /// Counts each read as it comes off the control socket.
    /// - Thread: the connection's event loop.
    final class ReadCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        private let account: Account

        init(account: Account) {
            self.account = account
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            account.read(unwrapInboundIn(data).readableBytes)
            context.fireChannelRead(data)
        }
    }
}
