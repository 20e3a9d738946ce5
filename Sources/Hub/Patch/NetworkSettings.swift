/// The RTP-MIDI sessions the daemon keeps (a patch's `network:` section, docs/network.md):
/// whether it accepts sessions and on which port, the peers it invites, whether its packets
/// carry the recovery journal, the jitter buffer; and where it takes OSC (a patch's `osc:`,
/// docs/osc.md). Kept in the state with the peers `network.connect` added.
///
/// - Thread: any (a plain value).
public struct NetworkSettings: Hashable, Sendable, Codable {
    /// Where the daemon accepts sessions.
    public struct Listen: Hashable, Sendable, Codable {
        /// The UDP control port (the data port is the next one).
        public var port: Int
        /// The session name peers show; nil: the machine's host name.
        public var name: String?
        /// The local address bound; nil: every IPv4 interface.
        public var address: String?

        public init(port: Int = NetworkSettings.defaultPort, name: String? = nil, address: String? = nil) {
            (self.port, self.name, self.address) = (port, name, address)
        }
    }

    /// nil: the daemon accepts no sessions (an invited peer's session still comes up).
    public var listen: Listen?
    /// The peers the daemon invites, `HOST` or `HOST:PORT`, in order.
    public var connect: [String]
    /// Whether packets carry the recovery journal.
    public var journal: Bool
    /// Milliseconds after its sender's moment that received MIDI is played; nil: as it
    /// arrives (docs/network.md#timing-and-the-jitter-buffer).
    public var jitterBuffer: Double?
    /// Where the daemon takes OSC (a patch's `osc:`); nil: no OSC unless `serve --osc` asks.
    public var osc: OSCListen?

    /// Where OSC is taken: UDP and TCP on `port` of `host`.
    public struct OSCListen: Hashable, Sendable, Codable {
        public var host: String
        public var port: Int

        public init(host: String = "127.0.0.1", port: Int) { (self.host, self.port) = (host, port) }
    }

    public init(listen: Listen? = nil, connect: [String] = [], journal: Bool = true, jitterBuffer: Double? = nil,
                osc: OSCListen? = nil) {
        (self.listen, self.connect, self.journal, self.jitterBuffer, self.osc) = (listen, connect, journal, jitterBuffer, osc)
    }

    /// The longest jitter buffer, in milliseconds.
    public static let jitterBuffers = 0.0...1000.0

    /// No sessions: no network host runs.
    public static let none = NetworkSettings()
    /// The control port peers assume.
    public static let defaultPort = 5004
    /// Control ports a host may take: the data port must be one above.
    public static let ports = 1...65534

    /// Whether nothing asks for a network host.
    public var isIdle: Bool { listen == nil && connect.isEmpty }

    /// The same settings, OSC taken at `osc`.
    /// - Thread: any.
    public func with(osc: OSCListen?) -> NetworkSettings {
        var settings = self
        settings.osc = osc
        return settings
    }

    /// The settings with `peer` invited too (once).
    /// - Thread: any.
    public func connecting(_ peer: String) -> NetworkSettings {
        var settings = self
        if !connect.contains(peer) { settings.connect.append(peer) }
        return settings
    }

    /// The settings without the invited peers in `peers`.
    /// - Thread: any.
    public func disconnecting(_ peers: Set<String>) -> NetworkSettings {
        var settings = self
        settings.connect.removeAll(where: peers.contains)
        return settings
    }
}
