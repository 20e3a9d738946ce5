import Control
import RTPMIDI
import Testing
@testable import Daemon

/// What `network.status` makes of a session host's summary: the names, the latency and jitter in
/// milliseconds (absent before the first clock sync), the counters as they are.
@Suite struct NetworkSessionSummaryTests {
    @Test func aSessionAsTheControlProtocolShowsIt() {
        var session = SessionSummary(id: 3, name: "laptop", address: PeerAddress(host: "127.0.0.2", port: 5004), invited: false,
                                     state: "up", latency: 1450, jitter: 120, packetsSent: 7, packetsReceived: 840,
                                     packetsLate: 4, packetsLost: 3, packetsRepaired: 2, packetsMalformed: 1)
        #expect(NetworkSessions.summary(session, port: "129:0") == NetworkSessionSummary(
            peer: "laptop", address: "127.0.0.2:5004", state: "up", invited: false, port: "129:0", latencyMs: 1.45,
            jitterMs: 0.12, packetsSent: 7, packetsReceived: 840, packetsLate: 4, packetsLost: 3, packetsRepaired: 2,
            packetsMalformed: 1))
        session.latency = nil
        session.jitter = nil
        session.address = PeerAddress(host: "fe80::1", port: 5006)
        let inviting = NetworkSessions.summary(session, port: nil)
        #expect(inviting.latencyMs == nil && inviting.jitterMs == nil && inviting.port == nil)
        #expect(inviting.address == "[fe80::1]:5006")
    }
}
