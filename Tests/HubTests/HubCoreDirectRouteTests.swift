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

    /// `directRoutesBasis` changes with everything `directRoutes` reads — the graph, the
    /// mappings, learning, the port list — and not with live MIDI (a shell works its table out
    /// again only when it changed).
    @Test func theBasisOfTheDirectRoutesChangesWithWhatTheyAreReadFromAndNotWithMIDI() throws {
        var core = try Self.core(Self.straight())
        var sink = RecordingSink()
        var basis = core.directRoutesBasis
        func changed(_ input: HubInput) throws -> Bool {
            _ = try core.handle(input, into: &sink)
            defer { basis = core.directRoutesBasis }
            return core.directRoutesBasis != basis
        }
        #expect(try !changed(.midi(.noteOn(channel: 0, note: 60, velocity: 100), from: Self.keyboard.address, at: 2)))
        #expect(try !changed(.midi(.controlChange(channel: 0, controller: 20, value: 9), from: Self.keyboard.address, at: 3)))
        let cutoff = MappingTarget(node: "piano", parameter: "cutoff", low: 20, high: 20000)
        #expect(try changed(.setMappings([Mapping(source: .controller(20), targets: [cutoff])], graphRevision: nil)), "mappings")
        #expect(try changed(.learn(node: "piano", parameter: "cutoff", seconds: 10, at: 4)), "learning")
        #expect(try changed(.cancelLearn), "learning ended")
        #expect(try changed(.portsListed([Self.keyboard], directSenders: [], connections: [], changed: true, at: 5)), "ports")
        #expect(try changed(.editGraph(.disconnect("keys", "fluid"), at: 6)), "the graph")
        #expect(try !changed(.midi(.noteOff(channel: 0, note: 60, velocity: 0), from: Self.keyboard.address, at: 7)))
    }
}
