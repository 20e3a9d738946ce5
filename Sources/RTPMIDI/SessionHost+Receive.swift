import MIDICore

/// - Thread: any (a value).
extension SessionHost {
    /// Takes one datagram that arrived on `channel` from `address`: a session command or an
    /// RTP packet. What cannot be read, or belongs to no session, is dropped and counted.
    /// - Thread: any (a value).
    public mutating func receive(_ datagram: [UInt8], via channel: SessionChannel, from address: PeerAddress,
                                 now: UInt64) -> [SessionEffect] {
        guard AppleMIDICommand.isCommand(datagram) else { return receivePacket(datagram, now: now) }
        guard let command = try? AppleMIDICommand(decoding: datagram) else {
            countStray()
            return []
        }
        switch command {
        case .invitation(let exchange):
            return channel == .control
                ? acceptOnControl(exchange, from: address, now: now) : acceptOnData(exchange, from: address, now: now)
        case .accepted(let exchange): return accepted(exchange, via: channel, now: now)
        case .refused(let exchange): return refused(exchange)
        case .end(let exchange): return ended(exchange, now: now)
        case .clockSync(let sync): return clockSync(sync, now: now)
        case .receiverFeedback(let peer, let sequenceNumber):
            guard var session = session(withPeer: peer) else {
                countStray()
                return []
            }
            session.journal.acknowledge(through: sequenceNumber)
            session.acknowledged = sequenceNumber
            session.lastHeard = now
            sessions[session.id] = session
            return []
        }
    }

    /// A peer's invitation on the control port: accepted, and the session waits for the
    /// same invitation on the data port. A peer that invites again from the address of a
    /// session it had (it restarted) ends that one first. A peer outside the allow-list, or
    /// one beyond `maximumSessions`, is refused (NO).
    private mutating func acceptOnControl(_ exchange: AppleMIDICommand.Exchange, from address: PeerAddress,
                                          now: UInt64) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        let known = session(withPeer: exchange.ssrc)
        if !allowList.allows(address.host) || known == nil && sessions.count >= Self.maximumSessions {
            let refusal = AppleMIDICommand.refused(.init(initiatorToken: exchange.initiatorToken, ssrc: ssrc, name: name))
            return [.send(refusal.encoded(), to: address, via: .control)]
        }
        if let known {
            sessions[known.id]?.lastHeard = now
        } else {
            for old in sessions.values where !old.invited && old.controlAddress == address {
                sessions[old.id] = nil
                effects += release(old)
                if old.phase == .up { effects.append(.sessionDown(old.summary, reason: "the peer restarted")) }
            }
            lastID += 1
            let session = PeerSession(
                id: lastID, invited: false, phase: .accepting, controlAddress: address, dataAddress: address.dataPort,
                peerName: exchange.name, peerSSRC: exchange.ssrc, initiatorToken: exchange.initiatorToken,
                lastHeard: now, nextSequenceNumber: UInt16(truncatingIfNeeded: exchange.ssrc ^ ssrc))
            sessions[session.id] = session
        }
        effects.append(.send(accept(exchange), to: address, via: .control))
        return effects
    }

    /// A peer's invitation on the data port: the session is up (again, for a repeat).
    private mutating func acceptOnData(_ exchange: AppleMIDICommand.Exchange, from address: PeerAddress,
                                       now: UInt64) -> [SessionEffect] {
        guard var session = session(withPeer: exchange.ssrc), !session.invited else {
            let refusal = AppleMIDICommand.refused(.init(initiatorToken: exchange.initiatorToken, ssrc: ssrc, name: name))
            return [.send(refusal.encoded(), to: address, via: .data)]
        }
        var effects: [SessionEffect] = [.send(accept(exchange), to: address, via: .data)]
        session.dataAddress = address
        session.lastHeard = now
        if session.phase != .up {
            session.phase = .up
            effects.append(.sessionUp(session.summary))
        }
        sessions[session.id] = session
        return effects
    }

    private func accept(_ exchange: AppleMIDICommand.Exchange) -> [UInt8] {
        AppleMIDICommand.accepted(.init(initiatorToken: exchange.initiatorToken, ssrc: ssrc, name: name)).encoded()
    }

    /// The peer accepted this host's invitation: on the control port, invite on the data
    /// port; on the data port, the session is up and the clock sync starts.
    private mutating func accepted(_ exchange: AppleMIDICommand.Exchange, via channel: SessionChannel,
                                   now: UInt64) -> [SessionEffect] {
        guard var session = session(withToken: exchange.initiatorToken),
              case .inviting(let onData, _, _) = session.phase, onData == (channel == .data)
        else { return [] }
        session.peerSSRC = exchange.ssrc
        session.peerName = exchange.name ?? session.peerName
        session.lastHeard = now
        var effects: [SessionEffect] = []
        if channel == .control {
            session.phase = .inviting(onData: true, attempts: 1, nextAt: now + timings.invitationInterval)
            effects.append(.send(invitation(session), to: session.dataAddress, via: .data))
        } else {
            session.phase = .up
            session.clockSyncsSent = 0
            session.nextClockSyncAt = now
            effects.append(.sessionUp(session.summary))
            effects += syncClock(&session, now: now)
        }
        sessions[session.id] = session
        return effects
    }

    /// The peer refused: the session is dropped (a refusal is the peer's choice; it is not
    /// invited again).
    private mutating func refused(_ exchange: AppleMIDICommand.Exchange) -> [SessionEffect] {
        guard let session = session(withToken: exchange.initiatorToken) else { return [] }
        sessions[session.id] = nil
        return [.sessionDown(session.summary, reason: "the peer refused the invitation")]
    }

    /// The peer ended the session: its notes end here; one this host invited is invited again.
    private mutating func ended(_ exchange: AppleMIDICommand.Exchange, now: UInt64) -> [SessionEffect] {
        guard let session = session(withPeer: exchange.ssrc) else { return [] }
        return lose(session, reason: "the peer ended the session", now: now)
    }

    /// A session whose peer is gone: note-offs for what it left sounding, the session down,
    /// then forgotten, or (one this host invited) waiting to invite again.
    mutating func lose(_ session: PeerSession, reason: String, now: UInt64) -> [SessionEffect] {
        var effects = release(session)
        if session.phase == .up { effects.append(.sessionDown(session.summary, reason: reason)) }
        if session.invited {
            var waiting = session
            waiting.phase = .waiting(nextAt: now)
            waiting.peerSSRC = nil
            waiting.repair = StreamRepair()
            waiting.journal = JournalSender()
            waiting.acknowledged = nil
            sessions[session.id] = waiting
        } else {
            sessions[session.id] = nil
        }
        return effects
    }

    /// One step of the clock sync. The initiator's count 0 is answered with count 1; its
    /// answer's count 2 gives both sides the round trip.
    private mutating func clockSync(_ sync: AppleMIDICommand.ClockSync, now: UInt64) -> [SessionEffect] {
        guard var session = session(withPeer: sync.ssrc), session.phase == .up else {
            countStray()
            return []
        }
        session.lastHeard = now
        var effects: [SessionEffect] = []
        let stamp = Self.syncTimestamp(now)
        switch sync.count {
        case 0:
            let answer = AppleMIDICommand.ClockSync(ssrc: ssrc, count: 1, timestamps: (sync.timestamps.0, stamp, 0))
            effects.append(.send(AppleMIDICommand.clockSync(answer).encoded(), to: session.dataAddress, via: .data))
        case 1:
            session.latency = Self.halfRoundTrip(sent: sync.timestamps.0, returned: stamp)
            session.clock.synced(sent: sync.timestamps.0, peer: sync.timestamps.1, returned: stamp)
            let answer = AppleMIDICommand.ClockSync(ssrc: ssrc, count: 2, timestamps: (sync.timestamps.0, sync.timestamps.1, stamp))
            effects.append(.send(AppleMIDICommand.clockSync(answer).encoded(), to: session.dataAddress, via: .data))
        default:
            let (sent, returned) = (sync.timestamps.0, sync.timestamps.2)
            session.latency = Self.halfRoundTrip(sent: sent, returned: returned)
            session.clock.synced(peerSent: sent, own: sync.timestamps.1, peerReturned: returned)
        }
        sessions[session.id] = session
        return effects
    }

    /// Half a clock sync's round trip in microseconds (its stamps are 100 µs apart); nil when
    /// the peer's stamps make no sense (the answer before the question, or past any clock).
    private static func halfRoundTrip(sent: UInt64, returned: UInt64) -> UInt64? {
        guard returned >= sent else { return nil }
        let (latency, overflow) = (returned - sent).multipliedReportingOverflow(by: 50)
        return overflow ? nil : latency
    }

    /// An RTP packet: its session's MIDI, after what the journal repairs. One that belongs
    /// to no session is stray; one of a session's that does not decode, malformed (its count).
    private mutating func receivePacket(_ datagram: [UInt8], now: UInt64) -> [SessionEffect] {
        guard let ssrc = RTPMIDIPacket.ssrc(of: datagram), let id = session(withPeer: ssrc)?.id,
              sessions[id]?.phase == .up, var session = takeSession(id) else {
            countStray()
            return []
        }
        defer { sessions[id] = session }
        guard case .success(let packet) = session.repair.decode(datagram: datagram) else { return [] }
        session.lastHeard = now
        session.packetsReceived += 1
        let arrival = session.repair.receive(packet)
        session.feedbackDue = true
        session.lastSequenceReceived = session.repair.lastSequenceNumber ?? packet.sequenceNumber
        session.clock.arrived(timestamp: packet.timestamp, now: now)
        return deliver(arrival, stamped: packet.timestamp, in: &session, now: now)
    }
}
