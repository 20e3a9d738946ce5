import NIOCore
import RTPMIDI

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
        var host = Substring(text), portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { throw .badAddress(text) }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw .badAddress(text) }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { throw .badAddress(text) }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = UInt16(portText), port > 0, port < .max else { throw .badAddress(text) }
        return (String(host), port)
    }
}
