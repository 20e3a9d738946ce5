import MIDICore

/// - Thread: any (a value).
extension SessionHost {
    /// A packet's MIDI for its session's port. Without a jitter buffer, or before the first
    /// clock sync, all of it now. With one, each command at the moment its sender stamped it
    /// (the packet's timestamp plus the command's delta, mapped to this host's clock through
    /// the clock sync) plus `jitterBuffer`, so that events keep their spacing however the
    /// network delays each packet; commands already due go now, and the packet counts as late.
    /// The journal's repair always goes now, first.
    func deliver(_ arrival: RTPMIDIDelivery, stamped timestamp: UInt32, in session: inout PeerSession,
                 now: UInt64) -> [SessionEffect] {
        guard jitterBuffer > 0, session.clock.offset != nil else {
            let messages = arrival.repair + arrival.commands.map(\.message)
            return messages.isEmpty ? [] : [.received(messages, session: session.id)]
        }
        var effects: [SessionEffect] = arrival.repair.isEmpty ? [] : [.received(arrival.repair, session: session.id)]
        var tick = timestamp, late = false
        for command in arrival.commands {
            tick &+= command.delta
            let due = (session.clock.localTime(ofRTP: tick, now: now) ?? now) &+ jitterBuffer
            late = late || due <= now
            append(command.message, at: due > now ? due : nil, for: session.id, to: &effects)
        }
        if late { session.packetsLate += 1 }
        return effects
    }

    /// Adds `message` to the last effect when it is due at the same moment, else a new one.
    private func append(_ message: MIDIMessage, at due: UInt64?, for id: SessionID, to effects: inout [SessionEffect]) {
        switch (effects.last, due) {
        case (.received(let messages, _)?, nil):
            effects[effects.count - 1] = .received(messages + [message], session: id)
        case (.receivedLater(let messages, _, let at)?, let due?) where at == due:
            effects[effects.count - 1] = .receivedLater(messages + [message], session: id, at: due)
        case (_, let due?):
            effects.append(.receivedLater([message], session: id, at: due))
        case (_, nil):
            effects.append(.received([message], session: id))
        }
    }
}
