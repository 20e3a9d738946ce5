import NIOCore
import RTPMIDI

/// - Thread: any (a value).
extension PeerAddress {
    /// Reads `HOST`, `HOST:PORT`, `[IPv6]:PORT` or a bare IPv6 address, and resolves a host
    /// name to its first address (the system's resolver: it may wait on DNS).
    /// - Parameter defaultPort: the control port when none is given (5004).
    /// - Throws: `NetworkError.badAddress` for text that is no address, `.unknownHost` for a
    ///   name that does not resolve.
    /// - Thread: any but an event loop (resolving blocks).
    public static func resolve(_ text: String, defaultPort: UInt16 = 5004) throws(NetworkError) -> PeerAddress {
        let (host, port) = try split(text, defaultPort: defaultPort)
        do {
            let address = try SocketAddress.makeAddressResolvingHost(host, port: Int(port))
            guard let ip = address.ipAddress else { throw NetworkError.unknownHost(host, reason: "not an IP address") }
            return PeerAddress(host: ip, port: port)
        } catch {
            throw .unknownHost(host, reason: "\(error)")
        }
    }

    /// The host and port of `text`, unresolved.
    static func split(_ text: String, defaultPort: UInt16) throws(NetworkError) -> (host: String, port: UInt16) {
        guard let parts = parts(of: text, defaultPort: defaultPort) else { throw .badAddress(text) }
        return parts
    }
}
