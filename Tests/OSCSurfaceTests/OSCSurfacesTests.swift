import OSC
@testable import OSCSurface
import RTPMIDI
import Testing

@Suite struct OSCSurfacesTests {
    let tablet = OSCPeer.udp(PeerAddress(host: "192.168.1.30", port: 50_123))
    let laptop = OSCPeer.tcp(PeerAddress(host: "192.168.1.31", port: 40_000))

    func volume(_ value: Float) -> OSCMessage { OSCMessage("/node/synth/volume", [.float(value)]) }

    @Test func anAddressIsSentAtMost30TimesASecondAndItsLastValueAlways() {
        var surfaces = OSCSurfaces()
        surfaces.register(tablet, at: 0)
        #expect(surfaces.offer([volume(0.1)], at: 10).map(\.0) == [volume(0.1)])
        #expect(surfaces.offer([volume(0.2)], at: 10.01).isEmpty)  // too soon: waits
        #expect(surfaces.offer([volume(0.3)], at: 10.02).isEmpty)  // replaces the waiting one
        #expect(surfaces.due(at: 10.03).isEmpty)
        #expect(surfaces.nextDue == 10 + 1.0 / 30)
        #expect(surfaces.due(at: 10.034).map(\.0) == [volume(0.3)])
        #expect(surfaces.nextDue == nil)
    }

    @Test func aSurfacesOwnMoveIsNotSentBackButAnotherValueIs() {
        var surfaces = OSCSurfaces()
        surfaces.register(tablet, at: 0)
        surfaces.register(laptop, port: 9101, at: 0)
        surfaces.noteOwnMoves([volume(0.5)], by: tablet, at: 20)
        let sent = surfaces.offer([volume(0.5)], at: 20.01)
        #expect(sent.map(\.1) == [OSCPeer.udp(PeerAddress(host: "192.168.1.31", port: 9101))])  // the laptop, at its registered port
        #expect(surfaces.offer([volume(0.5)], at: 21).map(\.1).contains(tablet))  // the same value later: a change of its own
        surfaces.noteOwnMoves([volume(2)], by: tablet, at: 30)
        #expect(surfaces.offer([volume(1)], at: 30.1).map(\.1).contains(tablet))  // clamped by the hub: sent back
    }

    @Test func anUnregisteredSurfaceGetsNothing() {
        var surfaces = OSCSurfaces()
        surfaces.register(tablet, at: 0)
        surfaces.unregister(tablet)
        #expect(surfaces.offer([volume(1)], at: 1).isEmpty)
        #expect(surfaces.count == 0)
    }

    @Test func theTableKeepsAtMost64SurfacesDroppingTheOneHeardFromLongestAgo() {
        var surfaces = OSCSurfaces()
        surfaces.register(tablet, at: 0)
        for port in 1...70 { surfaces.register(.udp(PeerAddress(host: "10.0.0.9", port: UInt16(port))), at: Double(port)) }
        #expect(surfaces.count == OSCSurfaces.maximumCount)
        #expect(!surfaces.contains(tablet))  // heard from first, dropped first
        #expect(surfaces.contains(.udp(PeerAddress(host: "10.0.0.9", port: 70))))
        #expect(!surfaces.contains(.udp(PeerAddress(host: "10.0.0.9", port: 6))))
        #expect(surfaces.contains(.udp(PeerAddress(host: "10.0.0.9", port: 7))))
    }
}
