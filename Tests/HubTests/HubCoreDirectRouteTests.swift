import HubTestSupport
import MIDICore
import Testing
@testable import Hub

/// What a shell reading a port nearer the sound (JACK MIDI in JACK's process callback) may
/// play without the core (`HubCore.directRoutes`, docs/jack.md "JACK MIDI at its
/// frame"): the units a port's source nodes route to straight, with their channels, and
/// nothing when something may act on the message first.
@Suite struct HubCoreDirectRouteTests {
    static let keyboard = PortFixtures.launchkey
    static let piano = GraphFixtures.piano, verb = GraphFixtures.verb, out = GraphFixtures.out, fluid = GraphFixtures.fluid

    static func core(_ graph: HubGraph) throws -> HubCore {
        var core = try HubCore(state: HubState(graph: graph), registry: GraphFixtures.registry)
        var sink = RecordingSink()
        _ = try core.handle(.portsListed([keyboard, PortFixtures.hubIn], directSenders: [], connections: [], changed: false, at: 0),
                            into: &sink)
        return core
    }

    static func straight() throws -> HubGraph {
        try HubGraph(nodes: [GraphFixtures.keys, piano, verb, fluid, out],
                     routes: [Route("keys", "piano", channels: [1, 2]), Route("keys", "fluid"), Route("piano", "verb"), Route("verb", "out")])
    }

    @Test func aSourceRoutedStraightToNodesPlaysThemWithTheRoutesChannels() throws {
        let core = try Self.core(Self.straight())
        // The piano on channels 1 and 2 (bits 0 and 1), the external node on all.
        #expect(core.directRoutes(from: Self.keyboard.address)
            == [DirectRoute(node: "piano", index: 1, isUnit: true, channelMask: 0b11),
                DirectRoute(node: "fluid", index: 3, isUnit: false, channelMask: 0xFFFF)])
        #expect(core.directRoutes(from: PortFixtures.hubIn.address) == [], "a port no source node reads plays nothing")
        #expect(core.directRoutes(from: PortAddress(client: 99, port: 9)) == nil, "an unknown port")
    }

    @Test func aProcessorOnTheWayLeavesTheSourceToTheCore() throws {
        #expect(try Self.core(GraphFixtures.chain()).directRoutes(from: Self.keyboard.address) == nil)
    }

    @Test func aMappingThatMayTakeItsMessagesLeavesTheSourceToTheCore() throws {
        var core = try Self.core(Self.straight())
        var sink = RecordingSink()
        let cutoff = MappingTarget(node: "piano", parameter: "cutoff", low: 20, high: 20000)
        _ = try core.handle(.setMappings([Mapping(from: "elsewhere", source: .controller(20), targets: [cutoff])], graphRevision: nil),
                            into: &sink)
        #expect(core.directRoutes(from: Self.keyboard.address)?.count == 2, "a mapping of another source's")
        _ = try core.handle(.setMappings([Mapping(source: .controller(20), targets: [cutoff])], graphRevision: nil), into: &sink)
        #expect(core.directRoutes(from: Self.keyboard.address) == nil, "a mapping of every port's")
        _ = try core.handle(.setMappings([Mapping(from: "keys", source: .controller(20), targets: [cutoff])], graphRevision: nil),
                            into: &sink)
        #expect(core.directRoutes(from: Self.keyboard.address) == nil, "a mapping of this source's")
    }

    @Test func learningLeavesEverySourceToTheCore() throws {
        var core = try Self.core(Self.straight())
        var sink = RecordingSink()
        _ = try core.handle(.learn(node: "piano", parameter: "cutoff", seconds: 10, at: 1), into: &sink)
        #expect(core.directRoutes(from: Self.keyboard.address) == nil)
        _ = try core.handle(.cancelLearn, into: &sink)
        #expect(core.directRoutes(from: Self.keyboard.address)?.count == 2)
    }
}
