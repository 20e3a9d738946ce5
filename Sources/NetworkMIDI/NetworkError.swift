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
        }
    }
}
