extension PeerAddress {
    /// The host and port of `HOST`, `HOST:PORT`, `[IPv6]:PORT` or a bare IPv6 address, as
    /// written (a name is not resolved); nil for text that is no peer address.
    /// - Parameter defaultPort: the control port when none is given (5004).
    /// - Thread: any.
    public static func parts(of text: String, defaultPort: UInt16 = 5004) -> (host: String, port: UInt16)? {
        var host = Substring(text), portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let rest = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty, !host.contains(where: \.isWhitespace) else { return nil }
        guard let portText else { return (String(host), defaultPort) }
        guard let port = UInt16(portText), port > 0, port < .max else { return nil }
        return (String(host), port)
    }
}
