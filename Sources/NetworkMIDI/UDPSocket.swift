import Glibc
import NIOCore
import RTPMIDI

/// One non-blocking UDP socket of a network host: bound at `init`, read until it has no more
/// datagrams, written a datagram at a time. Addresses go through SwiftNIO's `SocketAddress`
/// (parsing, `sockaddr` layout, text form); the socket itself is the system's, so the
/// network thread polls it beside the sequencer's descriptors (docs/architecture.md, "network thread").
///
/// - Thread: control (the network thread or the OSC server's, which owns it; `init` any).
public final class UDPSocket {
    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32
    /// The port it is bound to (the system's choice when bound to 0).
    public let port: Int
    /// One datagram at a time: RTP-MIDI packets fit an Ethernet frame, but a peer may send more.
    private var buffer = [UInt8](repeating: 0, count: 65536)
    /// The last peer sent to, its address parsed once: a session sends to the same one in turn.
    private var lastDestination: (peer: PeerAddress, address: SocketAddress)?
    /// The last peer heard from, by its `sockaddr`'s bytes, so its text is made once.
    private var lastSender: (address: sockaddr_storage, length: Int, peer: PeerAddress)?

    /// Binds a socket to `address` (an IP address or a host name) and `port` (0: any).
    /// - Throws: a line saying what the system refused.
    public init(address: String, port: Int) throws(SocketFailure) {
        (descriptor, self.port) = try Self.bound(Int32(SOCK_DGRAM.rawValue), address: address, port: port)
    }

    /// A non-blocking socket of `type` bound to `address` and `port` (0: any), and the port it got.
    /// `prepare` sets its options before the bind; `listening` makes it listen after (TCP).
    static func bound(_ type: Int32, address: String, port: Int, prepare: (Int32) -> Void = { _ in },
                      listening: Bool = false) throws(SocketFailure) -> (descriptor: Int32, port: Int) {
        let local: SocketAddress
        do {
            local = try SocketAddress.makeAddressResolvingHost(address, port: port)
        } catch {
            throw SocketFailure(reason: "\(error)")
        }
        let descriptor = socket(local.protocol.rawValue, type | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketFailure(call: "socket") }
        prepare(descriptor)
        guard local.withSockAddr({ bind(descriptor, $0, socklen_t($1)) }) == 0 else {
            let failure = SocketFailure(call: "bind")
            close(descriptor)
            throw failure
        }
        guard !listening || listen(descriptor, 16) == 0 else {
            let failure = SocketFailure(call: "listen")
            close(descriptor)
            throw failure
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0, let boundPort = peer(bound)?.port else {
            let failure = SocketFailure(call: "getsockname")
            close(descriptor)
            throw failure
        }
        return (descriptor, Int(boundPort))
    }

    deinit { close(descriptor) }

    /// The next datagram waiting and who sent it; nil when none waits.
    public func receive() -> (bytes: [UInt8], from: PeerAddress)? {
        var sender = sockaddr_storage()
        while true {
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let count = buffer.withUnsafeMutableBytes { bytes in
                withUnsafeMutablePointer(to: &sender) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length)
                    }
                }
            }
            if count < 0 && errno == EINTR { continue }
            // Nothing waits (EAGAIN), or an error: an ICMP error for an earlier send (port
            // unreachable) surfaces here once, and that peer's session times out as one that
            // stopped answering. The next wait finds any datagram behind it.
            guard count >= 0 else { return nil }
            guard let from = peer(sender, length: Int(length)) else { continue }
            return (Array(buffer[..<count]), from)
        }
    }

    /// Sends one datagram; a full socket buffer or an unreachable peer loses it, as UDP does.
    public func send(_ bytes: [UInt8], to peer: PeerAddress) {
        if lastDestination?.peer != peer {
            guard let address = try? SocketAddress(ipAddress: peer.host, port: Int(peer.port)) else { return }
            lastDestination = (peer, address)
        }
        _ = lastDestination?.address.withSockAddr { address, length in
            bytes.withUnsafeBytes { sendto(descriptor, $0.baseAddress, $0.count, 0, address, socklen_t(length)) }
        }
    }

    /// The IP address and port of the first `length` bytes of `storage`, the last sender's
    /// again when they are its.
    private func peer(_ storage: sockaddr_storage, length: Int) -> PeerAddress? {
        if let lastSender, lastSender.length == length, withUnsafeBytes(of: storage, { new in
            withUnsafeBytes(of: lastSender.address) { new.prefix(length).elementsEqual($0.prefix(length)) }
        }) {
            return lastSender.peer
        }
        guard let peer = Self.peer(storage) else { return nil }
        lastSender = (storage, length, peer)
        return peer
    }

    /// The IP address and port of an IPv4 or IPv6 socket address.
    static func peer(_ storage: sockaddr_storage) -> PeerAddress? {
        var storage = storage
        let address: SocketAddress
        switch Int32(storage.ss_family) {
        case AF_INET:
            address = withUnsafeBytes(of: &storage) { SocketAddress($0.load(as: sockaddr_in.self)) }
        case AF_INET6:
            address = withUnsafeBytes(of: &storage) { SocketAddress($0.load(as: sockaddr_in6.self)) }
        default:
            return nil
        }
        guard let host = address.ipAddress, let port = address.port else { return nil }
        return PeerAddress(host: host, port: UInt16(clamping: port))
    }
}

/// A socket call the system refused, as one line.
///
/// - Thread: any (a value).
public struct SocketFailure: Error, CustomStringConvertible {
    let reason: String

    init(reason: String) { self.reason = reason }

    /// The failure of `call`, from `errno`.
    init(call: String) { reason = "\(call): \(String(cString: strerror(errno)))" }

    public var description: String { reason }
}
