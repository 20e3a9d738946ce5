import MIDICore
import Testing

@testable import RTPMIDI

/// Two session hosts whose clocks disagree, joined by a wire that takes `delay` µs (or what
/// `delayOf` says for a datagram) for each datagram: what the jitter buffer sees.
private struct SkewedWire {
    var hosts = [SessionHost(name: "laptop", ssrc: 0x1111_1111), SessionHost(name: "rack", ssrc: 0x2222_2222)]
    let addresses = [PeerAddress(host: "10.0.0.1", port: 5004), PeerAddress(host: "10.0.0.2", port: 5004)]
    /// What each host's clock reads at true time 0: the rack's is 5 s ahead.
    let skew: [UInt64] = [0, 5_000_000]
    var delayOf: (Int) -> UInt64 = { _ in 1_500 }
    var sent = 0
    var happened: [[SessionEffect]] = [[], []]

    /// Carries `effects` of host `from`, made at true time `time`, and what they cause.
    mutating func deliver(_ effects: [SessionEffect], from: Int, at time: UInt64) {
        var queue = effects.map { (from, $0, time) }
        while !queue.isEmpty {
            let (source, effect, time) = queue.removeFirst()
            guard case .send(let bytes, let address, let channel) = effect else {
                happened[source].append(effect)
                continue
            }
            sent += 1
            let target = 1 - source, arrival = time + delayOf(sent)
            let via: SessionChannel = address.port == addresses[target].port ? .control : .data
            let origin = channel == .control ? addresses[source] : addresses[source].dataPort
            queue += hosts[target].receive(bytes, via: via, from: origin, now: arrival + skew[target])
                .map { (target, $0, arrival) }
        }
    }

    /// The laptop invites the rack at true time 0; the clock sync runs with the invitation.
    mutating func connect() -> SessionID {
        let (id, effects) = hosts[0].invite(addresses[1], now: skew[0])
        deliver(effects, from: 0, at: 0)
        return id
    }

    /// The laptop sends `messages` at true time `time`.
    mutating func send(_ messages: [MIDIMessage], session: SessionID, at time: UInt64) {
        deliver(hosts[0].send(messages, to: session, now: time + skew[0]), from: 0, at: time)
    }

    /// What reached the rack's port, with the rack's clock's moment for each (nil: at once).
    var atTheRack: [([MIDIMessage], UInt64?)] {
        happened[1].compactMap { effect in
            switch effect {
            case .received(let messages, _): (messages, nil)
            case .receivedLater(let messages, _, let at): (messages, at)
            default: nil
            }
        }
    }
}

@Suite struct PeerClockTests {
    @Test func theClockSyncFindsHowFarThePeersClockIsFromBothSides() {
        var initiator = PeerClock(), responder = PeerClock()
        // Sent at our 0, read by the peer (1 s ahead) 2 ms later, back at our 4 ms.
        initiator.synced(sent: 0, peer: 10_020, returned: 40)
        #expect(initiator.offset == 1_000_000)
        // The same exchange seen from the peer: its 10 020 between our 0 and 40.
        responder.synced(peerSent: 0, own: 10_020, peerReturned: 40)
        #expect(responder.offset == -1_000_000)
    }

    @Test func aHostilePeersAbsurdStampsLeaveAnOffsetNotATrap() {
        // Stamps past any clock (the fuzzer's find: the sum of two overflowed Int64).
        var clock = PeerClock()
        clock.synced(sent: .max, peer: 0, returned: .max - 1)
        clock.synced(peerSent: .max, own: 1, peerReturned: .max)
        #expect(clock.offset != nil)
        clock.arrived(timestamp: .max, now: .max)
        clock.arrived(timestamp: 0, now: 0)
        #expect(clock.localTime(ofRTP: 7, now: .max) != nil)
    }

    @Test func anRTPTimestampBecomesAMomentOfThisHostsClockAcrossTheWrap() {
        var clock = PeerClock()
        // The peer's clock is 2³² − 10 ticks ahead: its RTP timestamps wrap soon.
        let ahead: UInt64 = (1 << 32) - 10
        clock.synced(sent: 1_000, peer: 1_000 + ahead, returned: 1_000)
        let now: UInt64 = 100_000  // the peer's tick: 1 000 + 2³² − 10 … its timestamp wrapped
        let stamp = UInt32(truncatingIfNeeded: UInt64(now / 100) + ahead - 5)
        #expect(clock.localTime(ofRTP: stamp, now: now) == now - 500)
        #expect(PeerClock().localTime(ofRTP: 123, now: now) == nil)
    }

    @Test func withAJitterBufferEventsKeepTheirSendersSpacingWhateverTheirDelay() {
        var wire = SkewedWire()
        wire.hosts[1].jitterBuffer = 10_000
        let id = wire.connect()
        wire.happened = [[], []]
        let first: [MIDIMessage] = [.noteOn(channel: 0, note: 60, velocity: 100)]
        let second: [MIDIMessage] = [.noteOff(channel: 0, note: 60, velocity: 0)]
        wire.delayOf = { _ in 1_500 }
        wire.send(first, session: id, at: 1_000_000)
        wire.delayOf = { _ in 4_000 }  // the next packet 2.5 ms slower on the way
        wire.send(second, session: id, at: 1_001_000)
        // The sender's moments on the rack's clock (5 s ahead), plus 10 ms: 1 ms apart.
        let rack = wire.atTheRack
        #expect(rack.map(\.0) == [first, second])
        #expect(rack.map(\.1) == [6_010_000, 6_011_000])
        let summary = wire.hosts[1].summaries[0]
        #expect(summary.packetsLate == 0)
        #expect(summary.jitter == 2_500 / 16)
    }

    @Test func whatComesLaterThanTheBufferIsPlayedAtOnceAndCounted() {
        var wire = SkewedWire()
        wire.hosts[1].jitterBuffer = 1_000  // shorter than the wire's 1.5 ms
        let id = wire.connect()
        wire.happened = [[], []]
        wire.send([.noteOn(channel: 0, note: 62, velocity: 90)], session: id, at: 2_000_000)
        #expect(wire.atTheRack.map(\.1) == [nil])
        #expect(wire.hosts[1].summaries[0].packetsLate == 1)
    }

    @Test func withoutAJitterBufferEverythingIsPlayedAsItArrives() {
        var wire = SkewedWire()
        let id = wire.connect()
        wire.happened = [[], []]
        wire.send([.noteOn(channel: 0, note: 64, velocity: 90)], session: id, at: 3_000_000)
        #expect(wire.atTheRack.map(\.1) == [nil])
        #expect(wire.hosts[1].summaries[0].jitter == 0)
    }
}
