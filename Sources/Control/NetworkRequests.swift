/// `network.connect` parameters: `{"host":"192.168.1.20:5004"}` (`HOST`, `HOST:PORT` or
/// `[IPv6]:PORT`; port 5004 when not given).
///
/// - Thread: any (a plain value).
public struct NetworkPeerAddress: Hashable, Sendable, Codable {
    public var host: String

    public init(host: String) { self.host = host }
}

/// `network.disconnect` parameters: `{"peer":"laptop"}`, the peer's session name or its
/// address as `network.status` shows them, or the `HOST[:PORT]` it was invited as.
///
/// - Thread: any (a plain value).
public struct NetworkPeerReference: Hashable, Sendable, Codable {
    public var peer: String

    public init(peer: String) { self.peer = peer }
}
