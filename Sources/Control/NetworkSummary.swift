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
    /// Milliseconds: half the round trip of the last clock sync (absent until one).
    public var latencyMs: Double?
    /// Milliseconds: how much the packets' transit time varies, RFC 3550's interarrival
    /// jitter (absent until a clock sync).
    public var jitterMs: Double?
    /// RTP packets the daemon sent the peer, and received from it.
    public var packetsSent: Int, packetsReceived: Int
    /// Received packets played at once, having come after their moment plus the jitter buffer.
    public var packetsLate: Int
    /// Gaps in the peer's sequence numbers: packets the network lost.
    public var packetsLost: Int
    /// Losses the recovery journal made good (this side back at the sender's state).
    public var packetsRepaired: Int
    /// Datagrams from the peer that could not be read, dropped.
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
