/// One RTP-MIDI session of the daemon, as `network.status` lists it:
///
///     {"peer":"laptop","address":"192.168.1.10:5004","state":"up","invited":false,"port":"129:0",
///      "latencyMs":0.4,"jitterMs":0.1,"packetsSent":12,"packetsReceived":840,"packetsLate":0,
///      "packetsLost":3,"packetsRepaired":3,"packetsMalformed":0}
///
/// - Thread: any (a plain value).
public struct NetworkSessionSummary: Hashable, Sendable, Codable {
    /// The peer's session name (from its invitation or answer), else its address.
    public var peer: String
    /// The peer's control port, `HOST:PORT`.
    public var address: String
    /// `up`, `inviting` (this side invites and waits for the answer) or `waiting` (to invite again).
    public var state: String
    /// Whether the daemon invited the peer (else the peer invited it).
    public var invited: Bool
    /// The session's ALSA port (`CLIENT:PORT` of "midihub network") while it is up.
    public var port: String?
    /// Half the last clock sync's round trip, in milliseconds; absent before the first.
    public var latencyMs: Double?
    /// How much the packets' transit varies (RFC 3550's interarrival jitter), in
    /// milliseconds; absent before the first clock sync.
    public var jitterMs: Double?
    public var packetsSent: Int
    public var packetsReceived: Int
    /// Packets that came after their moment plus the jitter buffer, played at once.
    public var packetsLate: Int
    /// RTP packets that never arrived.
    public var packetsLost: Int
    /// Losses after which the recovery journal brought this side back to the sender's state.
    public var packetsRepaired: Int
    /// Datagrams dropped because they could not be read.
    public var packetsMalformed: Int

    public init(peer: String, address: String, state: String, invited: Bool, port: String? = nil, latencyMs: Double? = nil,
                jitterMs: Double? = nil, packetsSent: Int = 0, packetsReceived: Int = 0, packetsLate: Int = 0,
                packetsLost: Int = 0, packetsRepaired: Int = 0, packetsMalformed: Int = 0) {
        (self.peer, self.address, self.state, self.invited, self.port, self.latencyMs) = (peer, address, state, invited, port, latencyMs)
        (self.jitterMs, self.packetsSent, self.packetsReceived, self.packetsLate) = (jitterMs, packetsSent, packetsReceived, packetsLate)
        (self.packetsLost, self.packetsRepaired, self.packetsMalformed) = (packetsLost, packetsRepaired, packetsMalformed)
    }
}

/// What `session-up` and `session-down` say of a session: its peer and address, its port
/// (when it came up), why it ended (when it did).
///
/// - Thread: any (a plain value).
public struct NetworkSessionChange: Hashable, Sendable, Codable {
    public var peer: String
    public var address: String
    public var port: String?
    public var reason: String?

    public init(peer: String, address: String, port: String? = nil, reason: String? = nil) {
        (self.peer, self.address, self.port, self.reason) = (peer, address, port, reason)
    }
}
