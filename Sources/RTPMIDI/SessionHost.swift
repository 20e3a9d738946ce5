import MIDICore

/// The sessions of one RTP-MIDI host: Apple's session protocol on a control and a data
/// port, both ways (it accepts invitations and invites peers), and the MIDI of each session
/// as RTP packets with a recovery journal. Pure: it is fed what arrives and the time, and
/// answers with what to send and what happened (`SessionEffect`); the sockets, the timer
/// and the ports are its owner's (`NetworkMIDI.NetworkHost`).
///
/// Times are microseconds of one monotonic clock; the clock sync and the RTP timestamps
/// count it in 100 µs units, as Apple's sessions do.
///
/// A session this host invited lives until `end`: when the peer ends it or stops answering,
/// the host invites it again (every second, twelve times, then after a pause, and so on).
/// A session a peer invited ends when the peer ends it or stays silent.
///
/// - Thread: any (a value, used by one thread at a time: `NetworkHost`'s event loop).
public struct SessionHost: Sendable {
    /// Sessions a host keeps at most; invitations beyond them are refused (NO).
    public static let maximumSessions = 64
    /// This host's session name, shown by peers.
    public let name: String
    /// This host's synchronization source in every session.
    public let ssrc: UInt32
    public var timings: SessionTimings
    /// Whether packets carry the recovery journal (off only to show what it repairs).
    public var sendsJournal = true
    /// How long after the moment its sender stamped it a received event is played, in
    /// microseconds (0: as soon as it arrives). Longer than the network's delay and its
    /// jitter, it keeps the events' spacing; `SessionHost+Timing`.
    public var jitterBuffer: UInt64 = 0
    /// The networks whose invitations are accepted; others are refused (NO).
    public var allowList = PeerAllowList.everyone
    var sessions: [SessionID: PeerSession] = [:]
    var lastID: SessionID = 0
    private var lastToken: UInt32
    /// Datagrams dropped before any session could own them: unreadable, or from no session.
    public private(set) var strayDatagrams = 0

    /// - Thread: any.
    public init(name: String, ssrc: UInt32, timings: SessionTimings = SessionTimings()) {
        (self.name, self.ssrc, self.timings, self.lastToken) = (name, ssrc, timings, ssrc)
    }

    /// Every session, oldest first.
    public var summaries: [SessionSummary] { sessions.keys.sorted().compactMap { sessions[$0]?.summary } }

    /// The session whose summary is up and has this id, for its owner's port.
    public func isUp(_ id: SessionID) -> Bool { sessions[id]?.phase == .up }

    /// Invites the peer whose control port is `address`; the session comes up when it accepts.
    /// - Thread: any (a value).
    public mutating func invite(_ address: PeerAddress, now: UInt64) -> (SessionID, [SessionEffect]) {
        lastID += 1
        var session = PeerSession(
            id: lastID, invited: true, phase: .waiting(nextAt: now), controlAddress: address,
            dataAddress: address.dataPort, initiatorToken: 0, lastHeard: now, nextSequenceNumber: UInt16(truncatingIfNeeded: ssrc))
        var effects: [SessionEffect] = []
        startInviting(&session, now: now, into: &effects)
        sessions[session.id] = session
        return (session.id, effects)
    }

    /// Ends a session: BY to the peer when it is up, then it is forgotten (never invited again).
    /// - Thread: any (a value).
    public mutating func end(_ id: SessionID, now: UInt64) -> [SessionEffect] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        var effects: [SessionEffect] = []
        if session.phase == .up {
            effects.append(sendEnd(session))
            effects += release(session)
            effects.append(.sessionDown(session.summary, reason: "ended here"))
        }
        return effects
    }

    /// Ends every session (the host stops).
    /// - Thread: any (a value).
    public mutating func endAll(now: UInt64) -> [SessionEffect] {
        sessions.keys.sorted().flatMap { end($0, now: now) }
    }

    /// Sends `messages` to a session's peer in RTP packets of at most `packetCommandBytes`
    /// of MIDI each (one datagram stays within an Ethernet frame), each with the journal of
    /// what the peer may have missed. Nothing happens when the session is not up.
    /// - Thread: any (a value).
    public mutating func send(_ messages: [MIDIMessage], to id: SessionID, now: UInt64) -> [SessionEffect] {
        guard sessions[id]?.phase == .up, !messages.isEmpty, var session = takeSession(id) else { return [] }
        defer { sessions[id] = session }
        var effects: [SessionEffect] = [], start = 0, bytes = 0
        for (index, message) in messages.enumerated() {
            let size = message.bytes.count + 1
            if bytes + size > Self.packetCommandBytes, index > start {
                effects.append(packet(of: Array(messages[start..<index]), in: &session, now: now))
                (start, bytes) = (index, 0)
            }
            bytes += size
        }
        effects.append(packet(of: Array(messages[start...]), in: &session, now: now))
        return effects
    }

    /// The most MIDI bytes one packet carries (a longer SysEx goes alone).
    public static let packetCommandBytes = 960

    /// The next RTP packet of a session: `messages` and the journal of what came before
    /// since the peer's last feedback (none when empty or off).
    func packet(of messages: [MIDIMessage], in session: inout PeerSession, now: UInt64) -> SessionEffect {
        let sequenceNumber = session.nextSequenceNumber
        let packet = RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: Self.rtpTimestamp(now), ssrc: ssrc,
                                   commands: messages.map { RTPMIDICommand(delta: 0, message: $0) })
        let sendsJournal = sendsJournal
        let bytes = packet.encoded { sendsJournal && session.journal.encodeJournal(into: &$0) }
        for message in messages { session.journal.record(message, sequenceNumber: sequenceNumber) }
        session.nextSequenceNumber &+= 1
        session.lastPacketAt = now
        session.packetsSent += 1
        return .send(bytes, to: session.dataAddress, via: .data)
    }

    /// The RTP timestamp (10 kHz) of a moment.
    static func rtpTimestamp(_ now: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: now / 100) }

    /// The clock sync's timestamp (100 µs units) of a moment.
    static func syncTimestamp(_ now: UInt64) -> UInt64 { now / 100 }

    /// A new initiator token for an invitation.
    mutating func nextToken() -> UInt32 {
        lastToken = lastToken &* 1_664_525 &+ 1_013_904_223
        return lastToken
    }

    mutating func countStray() { strayDatagrams += 1 }

    /// Session `id` taken out of the table, to be put back changed: changed while the table
    /// still held it, its journal's and repair's buffers would be copied first (per packet).
    mutating func takeSession(_ id: SessionID) -> PeerSession? {
        sessions.removeValue(forKey: id)
    }

    /// The session whose peer is `ssrc`.
    func session(withPeer ssrc: UInt32) -> PeerSession? {
        sessions.values.first { $0.peerSSRC == ssrc }
    }

    /// The session this host invited with `token`.
    func session(withToken token: UInt32) -> PeerSession? {
        sessions.values.first { $0.invited && $0.initiatorToken == token }
    }

    /// BY from this host to a session's peer, on the control port.
    func sendEnd(_ session: PeerSession) -> SessionEffect {
        let exchange = AppleMIDICommand.Exchange(initiatorToken: session.initiatorToken, ssrc: ssrc)
        return .send(AppleMIDICommand.end(exchange).encoded(), to: session.controlAddress, via: .control)
    }

    /// Note-offs for what the session's peer left sounding here, before its port goes.
    func release(_ session: PeerSession) -> [SessionEffect] {
        let offs = session.repair.releaseMessages()
        return offs.isEmpty ? [] : [.received(offs, session: session.id)]
    }
}
