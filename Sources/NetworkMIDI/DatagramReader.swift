import NIOCore
import RTPMIDI

/// Hands each datagram of one of the host's two sockets to its sessions.
///
/// - Thread: the host's event loop.
final class DatagramReader: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let channel: SessionChannel
    private let driver: NIOLoopBound<SessionLoop>

    init(channel: SessionChannel, driver: NIOLoopBound<SessionLoop>) {
        (self.channel, self.driver) = (channel, driver)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard let host = envelope.remoteAddress.ipAddress, let port = envelope.remoteAddress.port else { return }
        let bytes = Array(envelope.data.readableBytesView)
        driver.value.receive(bytes, via: channel, from: PeerAddress(host: host, port: UInt16(clamping: port)))
    }

    /// A send refused by the network (ICMP port unreachable on Linux's UDP) is no reason to
    /// stop reading: the peer's session times out as one that stopped answering.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {}
}
