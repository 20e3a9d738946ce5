import Control
import Glibc
import NetworkMIDI
import OSC
import RTPMIDI

/// The OSC server's sockets on one port number: UDP datagrams (a packet each) and TCP
/// connections (at most `maximumConnections`), each framed as its first byte says
/// (`OSCStreamDecoder`: a size prefix, or SLIP) and answered in the same framing.
///
/// - Thread: control (the OSC server's thread, which owns it).
final class OSCTransports {
    private let udp: UDPSocket
    private let listener: TCPListener
    private var connections: [PeerAddress: Connection] = [:]
    /// Who may send: packets from elsewhere are dropped unanswered, connections closed.
    private let allowList: PeerAllowList
    /// The most datagrams read in one turn: under a flood the server's thread still sends
    /// changes back and runs timed bundles between turns (the rest wait in the socket).
    static let datagramsPerTurn = 256
    /// The most TCP connections open at once; one more is closed as it comes.
    static let maximumConnections = 64

    private struct Connection {
        let stream: TCPStream
        var decoder = OSCStreamDecoder()
    }

    /// What came from a peer.
    enum Arrival {
        case packet([UInt8])
        /// A TCP stream that cannot be read on: it is closed after this (`closed` follows).
        case unreadable(OSCError)
        /// A TCP connection ended.
        case closed
        /// A TCP connection beyond `maximumConnections`, closed as it came.
        case refused
        /// A packet or a connection from outside the allow-list, dropped (closed) unanswered.
        case notAllowed
    }

    /// The port both listen on.
    var port: Int { udp.port }

    /// Binds UDP and TCP to `port` of `host` (0: a port the system chooses, the same for both),
    /// for peers `allowList` allows.
    /// - Throws: what the system refused.
    init(host: String, port: Int, allowList: PeerAllowList) throws(SocketFailure) {
        self.allowList = allowList
        udp = try UDPSocket(address: host, port: port)
        listener = try TCPListener(address: host, port: udp.port)
    }

    /// Waits until something can be read or written, `wakeup` is signalled, one of
    /// `alsoWatching` is readable, or `milliseconds` pass.
    func wait(milliseconds: Int32, wakeup: WakePipe, alsoWatching: [Int32]) {
        var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: udp.descriptor, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: listener.descriptor, events: Int16(POLLIN), revents: 0)]
        for descriptor in alsoWatching { descriptors.append(pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)) }
        for connection in connections.values {
            let events = POLLIN | (connection.stream.isWaitingToWrite ? POLLOUT : 0)
            descriptors.append(pollfd(fd: connection.stream.descriptor, events: Int16(events), revents: 0))
        }
        _ = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
        if descriptors[0].revents != 0 { wakeup.drain() }
    }

    /// Reads what waits on every socket (up to `datagramsPerTurn` datagrams), handing each
    /// arrival to `handle`.
    func receive(_ handle: (OSCPeer, Arrival) -> Void) {
        for _ in 0..<Self.datagramsPerTurn {
            guard let (bytes, peer) = udp.receive() else { break }
            handle(.udp(peer), allowList.allows(peer.host) ? .packet(bytes) : .notAllowed)
        }
        while let stream = listener.accept() {
            guard allowList.allows(stream.peer.host) else {
                handle(.tcp(stream.peer), .notAllowed)
                continue
            }
            guard connections.count < Self.maximumConnections else {
                handle(.tcp(stream.peer), .refused)  // `stream` closes as it goes
                continue
            }
            connections[stream.peer] = Connection(stream: stream)
        }
        for peer in Array(connections.keys) { receive(from: peer, handle) }
    }

    private func receive(from peer: PeerAddress, _ handle: (OSCPeer, Arrival) -> Void) {
        guard var connection = connections[peer] else { return }
        guard connection.stream.flush(), let bytes = connection.stream.read() else {
            close(peer, handle)
            return
        }
        guard !bytes.isEmpty else { return }
        connection.decoder.append(bytes)
        while true {
            let packet: [UInt8]?
            do {
                packet = try connection.decoder.nextPacket()
            } catch {
                connections[peer] = connection
                handle(.tcp(peer), .unreadable(error))
                close(peer, handle)
                return
            }
            guard let packet else { break }
            connections[peer] = connection
            handle(.tcp(peer), .packet(packet))
            guard connections[peer] != nil else { return }  // closed while handling
        }
        connections[peer] = connection
    }

    private func close(_ peer: PeerAddress, _ handle: (OSCPeer, Arrival) -> Void) {
        connections[peer] = nil
        handle(.tcp(peer), .closed)
    }

    /// Sends one packet: a datagram, or a frame on its connection (in the framing it sends
    /// in). A connection whose peer does not read is closed (`closed` names the one that was).
    /// - Returns: the peer whose connection this closed, if it did.
    @discardableResult
    func send(_ packet: [UInt8], to peer: OSCPeer) -> OSCPeer? {
        switch peer {
        case .udp(let address):
            udp.send(packet, to: address)
            return nil
        case .tcp(let address):
            guard let connection = connections[address] else { return nil }
            guard connection.stream.write((connection.decoder.framing ?? .sizePrefixed).frame(packet)) else {
                connections[address] = nil
                return peer
            }
            return nil
        }
    }
}
