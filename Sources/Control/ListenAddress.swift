/// Where a server of the daemon listens: `[ADDRESS:]PORT` as `serve --remote` and
/// `serve --osc` take it, `127.0.0.1` when only a port is given.
///
/// - Thread: any (a plain value).
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// The interface's address or host name (`0.0.0.0` for every IPv4 interface).
    public var host: String
    /// The TCP or UDP port; 0 lets the system choose one (tests).
    public var port: Int

    public init(host: String = "127.0.0.1", port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `PORT`, `ADDRESS:PORT` or `[IPV6]:PORT`; `nil` when it is neither.
    public init?(parsing text: String) {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty else { return nil }
        }
        guard let port = Int(portText), (0...65_535).contains(port) else { return nil }
        self.init(host: host, port: port)
    }

    /// True when only this machine can reach it: a loopback address or `localhost`.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// `HOST:PORT`, an IPv6 address in brackets, as a URL writes it.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
