/// One session as its host keeps it: where the peer is, how far the invitation got, the
/// clock sync, the sequence numbers and journals both ways, the counters.
///
/// - Thread: any (the session host's: a value inside `SessionHost`).
struct PeerSession {
    enum Phase: Equatable {
        /// This host's invitation to the control port (`onData` false) or then to the data
        /// port; `attempts` sent so far, the next at `nextAt`.
        case inviting(onData: Bool, attempts: Int, nextAt: UInt64)
        /// The peer accepted this host's invitation on its control port only (we are the
        /// responder, its data-port invitation has not come yet).
        case accepting
        case up
        /// Not answering: invite again at `nextAt` (an initiator's session only).
        case waiting(nextAt: UInt64)
    }

    let id: SessionID
    let invited: Bool
    var phase: Phase
    var controlAddress: PeerAddress
    var dataAddress: PeerAddress
    var peerName: String?
    var peerSSRC: UInt32?
    var initiatorToken: UInt32
    var lastHeard: UInt64

    var clockSyncsSent = 0
    var nextClockSyncAt: UInt64 = 0
    var latency: UInt64?
    var clock = PeerClock()
    /// Packets whose commands were due before they arrived (the jitter buffer too short).
    var packetsLate = 0

    var nextSequenceNumber: UInt16
    var journal = JournalSender()
    /// When this host last sent the peer an RTP packet.
    var lastPacketAt: UInt64 = 0
    /// The newest of this host's packets the peer confirmed (RS), if any.
    var acknowledged: UInt16?
    var repair = StreamRepair()
    var feedbackDue = false
    var lastSequenceReceived: UInt16 = 0
    var nextFeedbackAt: UInt64 = 0

    var packetsSent = 0
    var packetsReceived = 0

    var summary: SessionSummary {
        let state = switch phase {
        case .inviting, .accepting: "inviting"
        case .up: "up"
        case .waiting: "waiting"
        }
        return SessionSummary(
            id: id, name: peerName ?? controlAddress.description, address: controlAddress, invited: invited,
            state: state, latency: latency, jitter: clock.offset.map { _ in UInt64(clock.jitter) },
            packetsSent: packetsSent, packetsReceived: packetsReceived, packetsLate: packetsLate,
            packetsLost: repair.packetsLost, packetsRepaired: repair.packetsRepaired,
            packetsMalformed: repair.packetsMalformed)
    }
}
