import MIDICore
import Testing
@testable import Hub
import HubTestSupport

/// The per-event path: ports resolved once (`MIDIRouter.Sender`), routes compiled per graph.
@Suite struct MIDIRouterSenderTests {
    @Test func aResolvedSenderRoutesLikeItsPort() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        let sender = router.sender(for: RouterFixtures.keyboard)
        #expect(sender.feedsGraph)
        var sink = RecordingSink()
        router.route(.noteOn(channel: 3, note: 60, velocity: 100), from: sender, time: 2, into: &sink)
        router.route(.noteOff(channel: 3, note: 60, velocity: 0), from: sender, time: 3, into: &sink)
        #expect(sink.messages(at: "fluid") == [.noteOn(channel: 3, note: 72, velocity: 100), .noteOff(channel: 3, note: 72, velocity: 0)])
        #expect(router.sounding.isEmpty)
    }

    @Test func aPortNoSourceSelectsFeedsNothing() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        #expect(!router.sender(for: RouterFixtures.app).feedsGraph)
    }

    @Test func aSenderOfAnOlderGraphRoutesNothingUntilResolvedAgain() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        let old = router.sender(for: RouterFixtures.keyboard)
        var sink = RecordingSink()
        try router.apply(GraphChange(from: router.graph, to: RouterFixtures.graph(semitones: -12)), at: 0, into: &sink)
        #expect(!router.isCurrent(old))
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: old, time: 1, into: &sink)
        #expect(sink.delivered.isEmpty)
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: router.sender(for: RouterFixtures.keyboard), time: 1, into: &sink)
        #expect(sink.messages(at: "fluid") == [.noteOn(channel: 0, note: 48, velocity: 100)])
    }

    @Test func aNoteHeldAcrossAGraphChangeIsStillTrackedInItsNewSlot() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: router.sender(for: RouterFixtures.keyboard), time: 1, into: &sink)
        router.route(.noteOn(channel: 0, note: 62, velocity: 100), from: router.sender(for: RouterFixtures.keyboard), time: 1, into: &sink)
        let other = GraphNode(id: "other", body: .external(ExternalNode(port: PortSelector(client: NamePattern(glob: "Other*")))))
        try router.apply(router.graph.adding(other, routes: [Route("keys", "other")]), at: 2, into: &sink)
        router.route(.noteOff(channel: 0, note: 60, velocity: 0), from: router.sender(for: RouterFixtures.keyboard), time: 3, into: &sink)
        var released = RecordingSink()
        router.unplug(RouterFixtures.keyboard.identity, at: 4, into: &released)
        #expect(released.messages(at: "fluid") == [.noteOff(channel: 0, note: 74, velocity: 0)])
        #expect(released.messages(at: "other").isEmpty)
        #expect(router.sounding.isEmpty)
    }

    @Test func channelFiltersOfRoutesHold() throws {
        let graph = try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
                                         RouterFixtures.fluid],
                                 routes: [Route("keys", "fluid", channels: [2, 16])])
        var router = try MIDIRouter(graph: graph)
        var sink = RecordingSink()
        for channel: UInt8 in 0..<16 {
            router.route(.controlChange(channel: channel, controller: 7, value: 1), from: RouterFixtures.keyboard, time: 0, into: &sink)
        }
        router.route(.start, from: RouterFixtures.keyboard, time: 0, into: &sink)
        #expect(sink.messages(at: "fluid") == [.controlChange(channel: 1, controller: 7, value: 1),
                                               .controlChange(channel: 15, controller: 7, value: 1), .start])
    }
}
