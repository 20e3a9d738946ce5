import MIDICore
import Testing

@testable import RTPMIDI

/// Two session hosts joined by a wire in memory: each datagram one sends reaches the other
/// on the socket its port names, from the sender's socket's address.
private struct TwoHosts {
    var hosts: [SessionHost]
    let addresses = [PeerAddress(host: "10.0.0.1", port: 5004), PeerAddress(host: "10.0.0.2", port: 5004)]
    /// Session commands and packets lost on the way (by the index of the datagram sent).
    var dropped: (Int) -> Bool = { _ in false }
    var sent = 0
    /// Effects other than sends, per host.
    var happened: [[SessionEffect]] = [[], []]

    init(timings: SessionTimings = SessionTimings()) {
        hosts = [SessionHost(name: "laptop", ssrc: 0x1111_1111, timings: timings),
                 SessionHost(name: "rack", ssrc: 0x2222_2222, timings: timings)]
    }

    /// Carries `effects` of host `from` and everything they cause, until the wire is quiet.
    mutating func deliver(_ effects: [SessionEffect], from: Int, now: UInt64) {
        var queue = effects.map { (from, $0) }
        while !queue.isEmpty {
            let (source, effect) = queue.removeFirst()
            guard case .send(let bytes, let address, let channel) = effect else {
                happened[source].append(effect)
                continue
            }
            sent += 1
            let target = source == 0 ? 1 : 0
            guard address.host == addresses[target].host, !dropped(sent) else { continue }
            let via: SessionChannel = address.port == addresses[target].port ? .control : .data
            let origin = channel == .control ? addresses[source] : addresses[source].dataPort
            queue += hosts[target].receive(bytes, via: via, from: origin, now: now).map { (target, $0) }
        }
    }

    mutating func tick(_ now: UInt64) {
        for index in 0..<2 { deliver(hosts[index].tick(now: now), from: index, now: now) }
    }

    /// Host 0 invites host 1 and the wire carries it through.
    mutating func connect(now: UInt64 = 0) -> SessionID {
        let (id, effects) = hosts[0].invite(addresses[1], now: now)
        deliver(effects, from: 0, now: now)
        return id
    }
}

@Suite struct SessionHostTests {
    @Test func anInvitationOnBothPortsBringsTheSessionUpOnBothSides() {
        var wire = TwoHosts()
        let id = wire.connect()
        #expect(wire.hosts[0].isUp(id))
        let rack = wire.hosts[1].summaries
        #expect(rack.count == 1 && rack[0].state == "up" && rack[0].name == "laptop" && !rack[0].invited)
        #expect(wire.hosts[0].summaries.first?.name == "rack")
        #expect(wire.happened[0].contains { if case .sessionUp = $0 { true } else { false } })
        #expect(wire.happened[1].contains { if case .sessionUp = $0 { true } else { false } })
    }

    @Test func theClockSyncMeasuresTheRoundTrip() {
        var wire = TwoHosts()
        let id = wire.connect()
        // The initiator's count 0 left at 0; its count 1 answer arrives 3 ms later.
        let sync = AppleMIDICommand.ClockSync(ssrc: 0x2222_2222, count: 1, timestamps: (0, 50, 0))
        _ = wire.hosts[0].receive(AppleMIDICommand.clockSync(sync).encoded(), via: .data,
                                  from: wire.addresses[1].dataPort, now: 3_000)
        #expect(wire.hosts[0].summaries.first { $0.id == id }?.latency == 1_500)
    }

    @Test func midiSentToASessionArrivesAtThePeersSession() {
        var wire = TwoHosts()
        let id = wire.connect()
        let notes: [MIDIMessage] = [.noteOn(channel: 0, note: 60, velocity: 100), .controlChange(channel: 0, controller: 7, value: 90)]
        wire.deliver(wire.hosts[0].send(notes, to: id, now: 1_000), from: 0, now: 1_000)
        let received = wire.happened[1].compactMap { effect -> [MIDIMessage]? in
            if case .received(let messages, _) = effect { messages } else { nil }
        }
        #expect(received == [notes])
        #expect(wire.hosts[0].summaries[0].packetsSent == 1 && wire.hosts[1].summaries[0].packetsReceived == 1)
    }

    @Test func theReceiverSendsFeedbackAtMostOnceASecond() {
        var wire = TwoHosts()
        let id = wire.connect()
        for time in [UInt64(10), 20, 30] {
            wire.deliver(wire.hosts[0].send([.clock], to: id, now: time), from: 0, now: time)
        }
        let feedback = wire.hosts[1].tick(now: 40) + wire.hosts[1].tick(now: 50)
        let sends = feedback.compactMap { effect -> AppleMIDICommand? in
            if case .send(let bytes, _, .control) = effect { try? AppleMIDICommand(decoding: bytes) } else { nil }
        }
        #expect(sends.count == 1)
        if case .receiverFeedback(let ssrc, _) = sends.first { #expect(ssrc == 0x2222_2222) } else { Issue.record("no RS") }
    }

    @Test func aPeerThatEndsLeavesNoNoteSounding() {
        var wire = TwoHosts()
        let id = wire.connect()
        wire.deliver(wire.hosts[0].send([.noteOn(channel: 2, note: 64, velocity: 90)], to: id, now: 10), from: 0, now: 10)
        wire.happened = [[], []]
        wire.deliver(wire.hosts[0].end(id, now: 20), from: 0, now: 20)
        #expect(wire.hosts[1].summaries.isEmpty && wire.hosts[0].summaries.isEmpty)
        #expect(wire.happened[1].first == .received([.noteOff(channel: 2, note: 64, velocity: 0)], session: 1))
        #expect(wire.happened[1].contains { if case .sessionDown(_, "the peer ended the session") = $0 { true } else { false } })
    }

    @Test func aSilentPeerIsDroppedAndInvitedAgainWhenItComesBack() {
        var timings = SessionTimings()
        timings.silenceTimeout = 5_000_000
        var wire = TwoHosts(timings: timings)
        let id = wire.connect()
        // The rack restarts: a new host that knows no session.
        wire.hosts[1] = SessionHost(name: "rack", ssrc: 0x3333_3333, timings: timings)
        wire.dropped = { _ in true }  // and is unreachable for a while
        wire.tick(6_000_000)
        #expect(!wire.hosts[0].isUp(id))
        #expect(wire.happened[0].contains { if case .sessionDown(_, "the peer stopped answering") = $0 { true } else { false } })
        wire.dropped = { _ in false }
        wire.tick(7_000_001)
        #expect(wire.hosts[0].isUp(id))
        #expect(wire.hosts[0].summaries[0].packetsSent == 0)
    }

    @Test func invitationsRepeatThenPauseThenStartAgain() {
        var timings = SessionTimings()
        timings.invitationAttempts = 3
        var wire = TwoHosts(timings: timings)
        wire.dropped = { _ in true }
        _ = wire.connect()
        var invitationTimes: [UInt64] = []
        for second in 1...20 {
            let now = UInt64(second) * 1_000_000
            let before = wire.sent
            wire.tick(now)
            if wire.sent > before { invitationTimes.append(now / 1_000_000) }
        }
        // 0 (connect), 1, 2 (three attempts); a pause of ten seconds from 3; again at 13, 14, 15.
        #expect(invitationTimes == [1, 2, 13, 14, 15])
        #expect(wire.hosts[0].summaries[0].state != "up")
    }

    @Test func aRestartedPeerReplacesItsOldSession() {
        var wire = TwoHosts()
        _ = wire.connect()
        let oldSession = wire.hosts[1].summaries[0].id
        wire.hosts[0] = SessionHost(name: "laptop", ssrc: 0x4444_4444)
        wire.happened = [[], []]
        _ = wire.connect(now: 100)
        #expect(wire.hosts[1].summaries.map(\.id) == [oldSession + 1])
        #expect(wire.happened[1].contains { if case .sessionDown(_, "the peer restarted") = $0 { true } else { false } })
    }

    @Test func strayAndUnreadableDatagramsAreCountedAndDropped() {
        var host = SessionHost(name: "rack", ssrc: 1)
        let stranger = PeerAddress(host: "10.9.9.9", port: 5004)
        #expect(host.receive([0xFF, 0xFF, 0x43], via: .control, from: stranger, now: 0).isEmpty)
        #expect(host.receive([0xFF, 0xFF, 0x58, 0x58, 0, 0], via: .control, from: stranger, now: 0).isEmpty)
        let feedback = AppleMIDICommand.receiverFeedback(ssrc: 77, sequenceNumber: 3).encoded()
        #expect(host.receive(feedback, via: .control, from: stranger, now: 0).isEmpty)
        #expect(host.strayDatagrams == 3)
        #expect(host.summaries.isEmpty)
    }

    @Test func aDataPortInvitationWithoutOneOnTheControlPortIsRefused() {
        var host = SessionHost(name: "rack", ssrc: 1)
        let invitation = AppleMIDICommand.invitation(.init(initiatorToken: 9, ssrc: 5, name: "x")).encoded()
        let effects = host.receive(invitation, via: .data, from: PeerAddress(host: "10.0.0.5", port: 5005), now: 0)
        guard case .send(let bytes, _, .data) = effects.first, case .refused(let exchange) = try? AppleMIDICommand(decoding: bytes)
        else { Issue.record("no refusal: \(effects)"); return }
        #expect(exchange.initiatorToken == 9)
    }
}

@Suite struct SessionHostLimitTests {
    /// A flood of invitations under made-up SSRCs cannot grow the host without bound.
    @Test func invitationsBeyondTheLimitAreRefused() throws {
        var host = SessionHost(name: "rack", ssrc: 1)
        var refusals = 0
        for peer in 0..<UInt32(SessionHost.maximumSessions + 5) {
            let invitation = AppleMIDICommand.invitation(.init(initiatorToken: peer, ssrc: 100 + peer, name: "p\(peer)"))
            let address = PeerAddress(host: "10.0.0.9", port: UInt16(6000 + peer * 2))
            for case .send(let bytes, _, _) in host.receive(invitation.encoded(), via: .control, from: address, now: 0) {
                if case .refused = try AppleMIDICommand(decoding: bytes) { refusals += 1 }
            }
        }
        #expect(host.summaries.count == SessionHost.maximumSessions)
        #expect(refusals == 5)
    }

    /// `serve --allow`: an invitation from outside the listed networks gets NO; one from
    /// inside, or from this machine, is accepted.
    @Test func invitationsFromOutsideTheAllowListAreRefused() throws {
        var host = SessionHost(name: "rack", ssrc: 1)
        host.allowList = try PeerAllowList(parsing: ["192.168.1.0/24"])
        func answer(from address: String, ssrc: UInt32) throws -> String {
            let invitation = AppleMIDICommand.invitation(.init(initiatorToken: ssrc, ssrc: ssrc, name: "p"))
            for case .send(let bytes, _, _) in host.receive(invitation.encoded(), via: .control,
                                                            from: PeerAddress(host: address, port: 5004), now: 0) {
                switch try AppleMIDICommand(decoding: bytes) {
                case .refused: return "NO"
                case .accepted: return "OK"
                default: continue
                }
            }
            return "nothing"
        }
        #expect(try answer(from: "10.0.0.9", ssrc: 7) == "NO")
        #expect(try answer(from: "192.168.2.1", ssrc: 8) == "NO")
        #expect(try answer(from: "192.168.1.20", ssrc: 9) == "OK")
        #expect(try answer(from: "127.0.0.1", ssrc: 10) == "OK")
        #expect(host.summaries.count == 2)
    }
}

@Suite struct PeerAllowListTests {
    @Test func networksContainTheirAddressesInBothFamilies() throws {
        let list = try PeerAllowList(parsing: ["192.168.1.0/24", "10.1.2.3", "fd00::/8", "172.16.0.0/12"])
        #expect(list.allows("192.168.1.200"))
        #expect(!list.allows("192.168.2.1"))
        #expect(list.allows("10.1.2.3"))
        #expect(!list.allows("10.1.2.4"))
        #expect(list.allows("fd12:3456::1"))
        #expect(!list.allows("fe80::1"))
        #expect(list.allows("172.31.255.255"))
        #expect(!list.allows("172.32.0.0"))
        #expect(list.allows("::ffff:192.168.1.7"))  // IPv4 in IPv6
        #expect(list.allows("127.0.0.5") && list.allows("::1"))  // this machine, always
        #expect(!list.allows("not an address"))
        #expect(PeerAllowList.everyone.allows("203.0.113.9"))
    }

    @Test func aBadNetworkSaysWhatToWrite() {
        #expect(throws: PeerAllowListError.notAnAddress("192.168.1/24")) { try PeerAllowList.Network(parsing: "192.168.1/24") }
        #expect(throws: PeerAllowListError.badPrefix("10.0.0.0/33", maximum: 32)) { try PeerAllowList.Network(parsing: "10.0.0.0/33") }
        #expect(PeerAllowListError.notAnAddress("x").description
            == "'x' is not a network (fix: write an IP address and a prefix length, like 192.168.1.0/24 or fd00::/8)")
    }
}

@Suite struct SessionHostJournalTests {
    /// The last packet of a phrase (its note-off) is lost, and nothing follows: the sender,
    /// unconfirmed, sends the journal alone, and the receiver ends the note.
    @Test func aLostLastNoteOffIsRepairedByTheJournalSentAgain() {
        var wire = TwoHosts()
        let id = wire.connect()
        wire.deliver(wire.hosts[0].send([.noteOn(channel: 0, note: 67, velocity: 80)], to: id, now: 10), from: 0, now: 10)
        let sentBefore = wire.sent
        wire.dropped = { $0 == sentBefore + 1 }
        wire.deliver(wire.hosts[0].send([.noteOff(channel: 0, note: 67, velocity: 0)], to: id, now: 20), from: 0, now: 20)
        wire.happened = [[], []]
        wire.tick(2_000_000)
        #expect(wire.happened[1].contains(.received([.noteOff(channel: 0, note: 67, velocity: 0)], session: 1)))
        #expect(wire.hosts[1].summaries[0].packetsLost == 1 && wire.hosts[1].summaries[0].packetsRepaired == 1)
    }

    @Test func aConfirmedPacketIsNotSentAgain() {
        var wire = TwoHosts()
        let id = wire.connect()
        wire.deliver(wire.hosts[0].send([.noteOn(channel: 0, note: 67, velocity: 80)], to: id, now: 10), from: 0, now: 10)
        wire.tick(1_000_000)  // the rack's feedback confirms it
        let sent = wire.hosts[0].summaries[0].packetsSent
        wire.tick(3_000_000)
        #expect(wire.hosts[0].summaries[0].packetsSent == sent)
    }

    @Test func withoutTheJournalALostNoteOffHangs() {
        var wire = TwoHosts()
        wire.hosts[0].sendsJournal = false
        let id = wire.connect()
        wire.deliver(wire.hosts[0].send([.noteOn(channel: 0, note: 67, velocity: 80)], to: id, now: 10), from: 0, now: 10)
        let sentBefore = wire.sent
        wire.dropped = { $0 == sentBefore + 1 }
        wire.deliver(wire.hosts[0].send([.noteOff(channel: 0, note: 67, velocity: 0)], to: id, now: 20), from: 0, now: 20)
        wire.dropped = { _ in false }
        wire.deliver(wire.hosts[0].send([.noteOn(channel: 0, note: 69, velocity: 80)], to: id, now: 30), from: 0, now: 30)
        wire.tick(3_000_000)
        #expect(wire.hosts[1].sessions[1]?.repair.soundingNotes(channel: 0).notes == [67, 69])
    }
}

@Suite struct SessionHostKeepAliveTests {
    /// A session where only one side plays stays up on both: the clock sync and the
    /// receiver's feedback keep each side hearing the other.
    @Test func aSessionWhereOneSidePlaysStaysUpForMinutes() {
        var wire = TwoHosts()
        let id = wire.connect()
        for step in 1...1_200 {
            let now = UInt64(step) * 100_000
            wire.deliver(wire.hosts[0].send([.noteOn(channel: 0, note: 60, velocity: 1)], to: id, now: now), from: 0, now: now)
            wire.tick(now)
        }
        #expect(wire.hosts[0].isUp(id))
        #expect(wire.hosts[1].summaries.first?.state == "up")
        #expect(!wire.happened[0].contains { if case .sessionDown = $0 { true } else { false } })
    }
}

@Suite struct SessionHostPacketSizeTests {
    @Test func aBurstIsSplitIntoPacketsThatFitAFrame() throws {
        var wire = TwoHosts()
        let id = wire.connect()
        let burst = (0..<1_000).map { MIDIMessage.controlChange(channel: 0, controller: 1, value: UInt8($0 % 128)) }
        let effects = wire.hosts[0].send(burst, to: id, now: 10)
        #expect(effects.count == 5)
        for case .send(let bytes, _, _) in effects { #expect(bytes.count <= 1_400) }
        wire.deliver(effects, from: 0, now: 10)
        let received = wire.happened[1].flatMap { effect -> [MIDIMessage] in
            if case .received(let messages, _) = effect { messages } else { [] }
        }
        #expect(received == burst)
    }
}
