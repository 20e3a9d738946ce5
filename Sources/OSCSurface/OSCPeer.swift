import RTPMIDI

/// Where an OSC surface sends from and is answered: a UDP address, or a TCP connection (by
/// its remote address, unique while it is open).
///
/// - Thread: any (a plain value).
enum OSCPeer: Hashable, Sendable, CustomStringConvertible {
    case udp(PeerAddress)
    case tcp(PeerAddress)

    var address: PeerAddress {
        switch self {
        case .udp(let address), .tcp(let address): address
        }
    }

    /// Port `port` of the peer's host, over UDP (where `/register PORT` sends changes).
    func udpPort(_ port: UInt16) -> OSCPeer { .udp(PeerAddress(host: address.host, port: port)) }

    var description: String {
        switch self {
        case .udp(let address): "\(address)"
        case .tcp(let address): "tcp \(address)"
        }
    }
}
