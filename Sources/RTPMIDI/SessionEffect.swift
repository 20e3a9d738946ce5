import MIDICore

/// What a session host asks of the sockets and the ports around it.
///
/// - Thread: any (a value).
public enum SessionEffect: Sendable, Equatable {
    /// Send `bytes` from the host's `channel` socket to `address`.
    case send([UInt8], to: PeerAddress, via: SessionChannel)
    /// A session is up: its port appears.
    case sessionUp(SessionSummary)
    /// A session ended (`reason` says why, one line): its port goes away.
    case sessionDown(SessionSummary, reason: String)
    /// MIDI from a session's peer, in order, for its port now: repairs from the journal first.
    case received([MIDIMessage], session: SessionID)
    /// MIDI from a session's peer for its port at `at` (this host's clock, µs): the moment
    /// the peer stamped it plus the jitter buffer (`SessionHost.jitterBuffer`).
    case receivedLater([MIDIMessage], session: SessionID, at: UInt64)
}

/// A session's number in its host: stable from the first invitation to the end, never reused.
public typealias SessionID = Int

/// What `midihub network status` shows of one session.
///
/// - Thread: any (a value).
public struct SessionSummary: Hashable, Sendable {
    public var id: SessionID
    /// The peer's session name (from its invitation or acceptance), else its address.
    public var name: String
    /// The peer's control port.
    public var address: PeerAddress
    /// Whether this host invited the peer.
    public var invited: Bool
    /// `inviting`, `up` or `waiting` (to invite again).
    public var state: String
    /// Half the last clock sync's round trip, in microseconds; nil before the first.
    public var latency: UInt64?
    /// How much the packets' transit varies (RFC 3550's interarrival jitter), in
    /// microseconds; nil before the first clock sync.
    public var jitter: UInt64?
    public var packetsSent: Int
    public var packetsReceived: Int
    /// Packets that arrived after their moment plus the jitter buffer: played at once.
    public var packetsLate: Int
    /// RTP packets that never arrived (gaps in the sequence numbers).
    public var packetsLost: Int
    /// Gaps after which the journal brought this side back to the sender's state.
    public var packetsRepaired: Int
    /// Datagrams dropped because they could not be read.
    public var packetsMalformed: Int

    /// - Thread: any.
    public init(id: SessionID, name: String, address: PeerAddress, invited: Bool, state: String, latency: UInt64?,
                jitter: UInt64?, packetsSent: Int, packetsReceived: Int, packetsLate: Int, packetsLost: Int,
                packetsRepaired: Int, packetsMalformed: Int) {
        (self.id, self.name, self.address, self.invited, self.state, self.latency) = (id, name, address, invited, state, latency)
        (self.jitter, self.packetsSent, self.packetsReceived, self.packetsLate) = (jitter, packetsSent, packetsReceived, packetsLate)
        (self.packetsLost, self.packetsRepaired, self.packetsMalformed) = (packetsLost, packetsRepaired, packetsMalformed)
    }
}
