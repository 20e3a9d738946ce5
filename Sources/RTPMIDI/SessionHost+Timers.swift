/// - Thread: any (a value).
extension SessionHost {
    /// What is due at `now`: invitations repeated or started again, clock syncs, receiver
    /// feedback, and the end of sessions whose peer went silent. Call it every few tens of
    /// milliseconds.
    /// - Thread: any (a value).
    public mutating func tick(now: UInt64) -> [SessionEffect] {
        var effects: [SessionEffect] = []
        for id in sessions.keys.sorted() {
            guard var session = sessions[id] else { continue }
            switch session.phase {
            case .inviting(let onData, let attempts, let nextAt) where now >= nextAt:
                if attempts >= timings.invitationAttempts {
                    session.phase = .waiting(nextAt: now + timings.reinvitationDelay)
                } else {
                    session.phase = .inviting(onData: onData, attempts: attempts + 1, nextAt: now + timings.invitationInterval)
                    let address = onData ? session.dataAddress : session.controlAddress
                    effects.append(.send(invitation(session), to: address, via: onData ? .data : .control))
                }
            case .waiting(let nextAt) where now >= nextAt:
                startInviting(&session, now: now, into: &effects)
            case .accepting where now - session.lastHeard > timings.silenceTimeout:
                sessions[id] = nil
                continue
            case .up where now - session.lastHeard > timings.silenceTimeout:
                effects += lose(session, reason: "the peer stopped answering", now: now)
                continue
            case .up:
                if session.invited, now >= session.nextClockSyncAt { effects += syncClock(&session, now: now) }
                if session.feedbackDue, now >= session.nextFeedbackAt { effects.append(feedback(&session, now: now)) }
                if needsJournalRefresh(session, now: now) { effects.append(packet(of: [], in: &session, now: now)) }
            default:
                break
            }
            sessions[id] = session
        }
        return effects
    }

    /// Whether the peer may have lost this host's last packets and heard nothing since: a
    /// packet went out, the peer has not confirmed it, and nothing was sent for a while.
    /// Then an empty packet carries the journal, so a note-off lost at the end of a phrase
    /// is repaired without waiting for the next note.
    func needsJournalRefresh(_ session: PeerSession, now: UInt64) -> Bool {
        guard sendsJournal, session.packetsSent > 0, now - session.lastPacketAt >= timings.journalRefreshInterval
        else { return false }
        return session.acknowledged != session.nextSequenceNumber &- 1
    }

    /// A first invitation to the peer's control port, with a new token.
    mutating func startInviting(_ session: inout PeerSession, now: UInt64, into effects: inout [SessionEffect]) {
        session.initiatorToken = nextToken()
        session.phase = .inviting(onData: false, attempts: 1, nextAt: now + timings.invitationInterval)
        effects.append(.send(invitation(session), to: session.controlAddress, via: .control))
    }

    /// IN with the session's token and this host's name.
    func invitation(_ session: PeerSession) -> [UInt8] {
        AppleMIDICommand.invitation(.init(initiatorToken: session.initiatorToken, ssrc: ssrc, name: name)).encoded()
    }

    /// The initiator's count-0 clock sync, and when the next is due.
    func syncClock(_ session: inout PeerSession, now: UInt64) -> [SessionEffect] {
        session.clockSyncsSent += 1
        let interval = session.clockSyncsSent < timings.quickClockSyncs
            ? timings.quickClockSyncInterval : timings.clockSyncInterval
        session.nextClockSyncAt = now + interval
        let sync = AppleMIDICommand.ClockSync(ssrc: ssrc, count: 0, timestamps: (Self.syncTimestamp(now), 0, 0))
        return [.send(AppleMIDICommand.clockSync(sync).encoded(), to: session.dataAddress, via: .data)]
    }

    /// RS: every packet up to the newest in order has arrived (or been repaired).
    func feedback(_ session: inout PeerSession, now: UInt64) -> SessionEffect {
        session.feedbackDue = false
        session.nextFeedbackAt = now + timings.feedbackInterval
        let command = AppleMIDICommand.receiverFeedback(ssrc: ssrc, sequenceNumber: session.lastSequenceReceived)
        return .send(command.encoded(), to: session.controlAddress, via: .control)
    }
}
