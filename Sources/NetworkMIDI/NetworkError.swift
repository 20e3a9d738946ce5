/// Why a network host could not start or reach a peer: one line naming the problem and the fix.
///
/// - Thread: any (a value).
public enum NetworkError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The control or data port could not be bound.
    case bind(address: String, port: Int, reason: String)
    /// The sequencer client or its thread could not be made.
    case ports(String)
    /// A peer's host name did not resolve.
    case unknownHost(String, reason: String)
    /// `HOST[:PORT]` that is not one.
    case badAddress(String)
    /// The Avahi daemon could not be asked for the sessions on the network.
    case discovery(String)
    /// No host or announced session of that name.
    case unknownPeer(String)

    public var description: String {
        switch self {
        case .bind(let address, let port, let reason):
            "cannot listen on UDP \(address):\(port) and \(port + 1): \(reason) (fix: stop what uses them, or choose other ports with --port)"
        case .ports(let reason):
            "cannot make the sessions' sequencer ports: \(reason)"
        case .unknownHost(let host, let reason):
            "cannot find the host '\(host)': \(reason) (fix: give its IP address, or check its name)"
        case .badAddress(let text):
            "'\(text)' is not a peer address (fix: HOST or HOST:PORT, e.g. 192.168.1.20:5004 or [fe80::1]:5004)"
        case .discovery(let reason):
            "cannot look for sessions on the network: Avahi: \(reason) (fix: apt install avahi-daemon and start it, or give the peer's address)"
        case .unknownPeer(let name):
            "no host and no session on the network named '\(name)' (fix: give its address, or see midihub network browse)"
        }
    }
}
