import MIDICore
import RenderCore
import HubTestSupport
import Testing
@testable import Hub

/// `HubCore` driven directly: commands in, effects and MIDI out, no daemon, no ALSA.
@Suite struct HubCoreTests {
    static let keyboard = PortFixtures.launchkey

    static func core(_ graph: HubGraph? = nil, rules: [ConnectionRule] = []) throws -> HubCore {
        try HubCore(state: HubState(graph: graph ?? GraphFixtures.chain(), rules: rules, tempo: 120),
                    registry: GraphFixtures.registry)
    }

    /// The chain with `piano` removed (its routes with it).
    static func withoutPiano() throws -> HubGraph {
        try GraphFixtures.chain().removing("piano").new
    }

    @Test func removingANodeWithNotesHeldEndsThemThereAndSwapsTheProgram() throws {
        var core = try Self.core()
        var played = RecordingSink()
        for note: UInt8 in [60, 64] {
            core.router.route(.noteOn(channel: 0, note: note, velocity: 100), from: Self.keyboard, time: 1, into: &played)
        }
        #expect(played.messages(at: "piano").count == 2)

        let change = GraphChange(from: core.router.graph, to: try Self.withoutPiano())
        var released = RecordingSink()
        let effects = try core.changeGraph(change, at: 2, into: &released)

        // Transposed up an octave on the way in, released as played.
        #expect(Set(released.messages(at: "piano")) == [.noteOff(channel: 0, note: 72, velocity: 0),
                                                         .noteOff(channel: 0, note: 76, velocity: 0)])
        #expect(released.delivered.allSatisfy { $0.event.time == 2 })
        #expect(effects.first == .installProgram(try Self.withoutPiano(), stopped: [GraphFixtures.piano]))
        #expect(effects.contains(.nodeRemoved("piano")))
        #expect(effects.contains(.log("node piano removed")))
        #expect(Array(effects.suffix(2)) == [.linkExternalNodes, .save(core.state)])
        #expect(core.state.graph.node("piano") == nil)
        // The keyboard's next note reaches no node that is gone.
        var after = RecordingSink()
        core.router.route(.noteOn(channel: 0, note: 62, velocity: 90), from: Self.keyboard, time: 3, into: &after)
        #expect(after.delivered.isEmpty)
    }

    @Test func aReplacedNodeIsNotReportedGone() throws {
        var core = try Self.core()
        let change = try core.router.graph.replacing("verb", with: .unit(GraphFixtures.reverb), parameters: ["mix": 0.5])
        var sink = RecordingSink()
        let effects = try core.changeGraph(change, at: 0, into: &sink)
        #expect(effects.contains(.log("node verb replaced")))
        #expect(!effects.contains(.nodeRemoved("verb")))
    }

    @Test func aRefusedChangeSendsNothingAndKeepsTheGraph() throws {
        var core = try Self.core()
        var played = RecordingSink()
        core.router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: Self.keyboard, time: 1, into: &played)
        let broken = try HubGraph(nodes: [GraphFixtures.keys, GraphNode(id: "up", body: .processor(.transpose), parameters: ["shift": 3]),
                                          GraphFixtures.out],
                                  routes: [Route("keys", "up")])
        var sink = RecordingSink()
        #expect(throws: HubRefusal.self) { try core.changeGraph(GraphChange(from: core.router.graph, to: broken), at: 2, into: &sink) }
        #expect(sink.delivered.isEmpty)
        #expect(core.state.graph == (try GraphFixtures.chain()))
    }

    @Test func anEmptyChangeDoesNothing() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        #expect(try core.changeGraph(GraphChange(from: core.router.graph, to: core.router.graph), at: 0, into: &sink).isEmpty)
    }

    @Test func aBuiltInParameterLandsAtItsFrameAndIsSaved() throws {
        var core = try Self.core()
        let (info, effects) = try core.setParameter(node: "piano", "cutoff", to: 440, at: 5, frameTime: 4.5)
        #expect(info.name == "cutoff")
        #expect(effects.first == .setNodeParameter(node: "piano", parameter: "cutoff", value: 440, at: 4.5))
        #expect(effects.contains(.parameterChanged(node: "piano", parameter: "cutoff", value: 440)))
        #expect(core.state.graph.node("piano")?.parameters["cutoff"] == 440)
        #expect(effects.last == .save(core.state))
    }

    @Test func aProcessorParameterMovesTheProcessorOnly() throws {
        var core = try Self.core()
        let (_, effects) = try core.setParameter(node: "up", "semitones", to: -12, at: 0)
        #expect(!effects.contains { if case .setNodeParameter = $0 { true } else { false } })
        var sink = RecordingSink()
        core.router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: Self.keyboard, time: 1, into: &sink)
        #expect(sink.messages(at: "piano") == [.noteOn(channel: 0, note: 48, velocity: 100)])
        #expect(core.state.graph.node("up")?.parameters["semitones"] == -12)
    }

    @Test func refusedParametersChangeNothing() throws {
        var core = try Self.core()
        let before = core.state
        #expect(throws: HubRefusal(.unknownNode, "no node 'organ'", fix: "run 'midihub nodes' to list nodes")) {
            try core.setParameter(node: "organ", "cutoff", to: 1, at: 0)
        }
        #expect(throws: HubRefusal(.invalidValue, "cutoff must lie in 20.0…20000.0", fix: "give a value in that range")) {
            try core.setParameter(node: "piano", "cutoff", to: 5, at: 0)
        }
        #expect(throws: HubRefusal(.unknownParameter, "node 'verb' has no parameter 'size'", fix: "use one of mix, bypass")) {
            try core.setParameter(node: "verb", "size", to: 1, at: 0)
        }
        #expect(throws: HubRefusal.self) { try core.setParameter(node: "out", "gain", to: 1, at: 0) }
        #expect(core.state == before)
    }

    @Test func bypassRewiresOnlyWhenItChanges() throws {
        var core = try Self.core()
        let (_, effects) = try core.setParameter(node: "verb", "bypass", to: 1, at: 0)
        let bypassed = try #require(core.state.graph.node("verb"))
        #expect(bypassed.isBypassed)
        #expect(effects.first == .installProgram(core.state.graph, stopped: []))
        #expect(effects.contains(.log("node verb bypassed")))
        let (_, again) = try core.setParameter(node: "verb", "bypass", to: 1, at: 0)
        #expect(!again.contains { if case .installProgram = $0 { true } else { false } })
        #expect(again.contains(.parameterChanged(node: "verb", parameter: "bypass", value: 1)))
    }

    @Test func theTransportsTempoMovesTheClockAndTheEngine() throws {
        var core = try Self.core()
        let (_, effects) = try core.setParameter(node: "transport", "tempo", to: 90, at: 10)
        #expect(effects.first == .setEngineTempo(90))
        #expect(core.state.tempo == 90)
        #expect(core.router.clock.beatsPerMinute == 90)
    }

    @Test func aMappedValueForAParameterTheTypeLacksSetsNothing() throws {
        var core = try Self.core()
        var effects: [HubEffect] = []
        #expect(!core.setUnitParameter("piano", "resonance", to: 1, at: 0, into: &effects))
        #expect(!core.setUnitParameter("organ", "cutoff", to: 1, at: 0, into: &effects))
        #expect(effects.isEmpty)
        #expect(core.setUnitParameter("guitar", "gain", to: 3, at: 0, into: &effects) == false)  // not in this graph
        #expect(core.state == (try Self.core()).state)
    }

    @Test func aPatchReplacesEverythingAndTheRulesApply() throws {
        var core = try Self.core()
        core.currentScene = "old"
        core.triggerLevels = ["play": 1]
        let rule = try ConnectionRule(parsing: #"connect hardware:* -> "midihub:in""#)
        let scene = Scene(name: "verse", program: 1, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800)])
        let patch = Patch(graph: try Self.withoutPiano(), rules: [rule], tempo: 100, scenes: [scene])
        var sink = RecordingSink()
        let effects = try core.install(patch, at: 3, into: &sink)
        #expect(core.state.graph == patch.graph)
        #expect(core.state.rules == [rule])
        #expect(core.state.tempo == 100)
        #expect(core.scenes == [scene])
        #expect(core.currentScene == nil)
        #expect(core.triggerLevels.isEmpty)
        #expect(effects.first == .installProgram(patch.graph, stopped: [GraphFixtures.piano]))
        #expect(effects.contains(.setEngineTempo(100)))
        #expect(Array(effects.suffix(2)) == [.linkExternalNodes, .save(core.state)])
        #expect(effects.filter { if case .save = $0 { true } else { false } }.count == 1)
    }

    @Test func rulesSetApplyAtOnceAndAreSaved() throws {
        var core = try Self.core()
        let rule = try ConnectionRule(parsing: #"connect hardware:* -> "midihub:in""#)
        let effects = core.setRules([rule])
        #expect(effects == [.log("rules set (1)"), .linkExternalNodes, .save(core.state)])
        var sink = RecordingSink()
        _ = try core.handle(.portsListed([Self.keyboard, PortFixtures.hubIn], directSenders: [], connections: [], changed: false, at: 1),
                            into: &sink)
        #expect(try core.handle(.setRules([rule]), into: &sink)
            == [.log("rules set (1)"), .ports(.connect(Connection(Self.keyboard.address, PortFixtures.hubIn.address))),
                .linkExternalNodes, .save(core.snapshot.state)])
    }

    /// Hot-plug with audio nodes sounding: the unplugged controller's notes end at the node
    /// they reached, and the graph stays as it was.
    @Test func anUnpluggedControllersNotesEndAndTheGraphStays() throws {
        var core = try Self.core()
        var played = RecordingSink()
        _ = try core.handle(.portsListed([Self.keyboard, PortFixtures.hubIn], directSenders: [], connections: [], changed: false, at: 0),
                            into: &played)
        _ = try core.handle(.midi(.noteOn(channel: 0, note: 60, velocity: 100), from: Self.keyboard.address, at: 1), into: &played)
        _ = try core.handle(.midi(.controlChange(channel: 0, controller: 64, value: 127), from: Self.keyboard.address, at: 1),
                            into: &played)
        var released = RecordingSink()
        let left = try core.handle(.portsListed([PortFixtures.hubIn], directSenders: [], connections: [], changed: true, at: 2),
                                   into: &released)
        #expect(left == [.portLeft(Self.keyboard, releasedNotesAt: ["piano"])])
        #expect(released.messages(at: "piano").contains(.noteOff(channel: 0, note: 72, velocity: 0)))
        #expect(released.messages(at: "piano").contains(.controlChange(channel: 0, controller: 64, value: 0)))
        #expect(core.snapshot.graph == (try GraphFixtures.chain()))
    }
}

/// JACK ports reach the core as the daemon's JACK table describes them: client `jack`, port
/// `CLIENT:PORT`, an address outside ALSA's client range.
@Suite struct HubCoreJackTests {
    static let jackKeys = PortFixtures.port(1000, 0, "jack", "a2j:keys", .app, .output)

    static func core() throws -> HubCore {
        let graph = try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(parsing: "jack:a2j:*"))),
                                         GraphFixtures.piano, GraphFixtures.out],
                                 routes: [Route("keys", "piano"), Route("piano", "out")])
        return try HubCore(state: HubState(graph: graph, rules: ConnectionRule.parseList(#"connect "jack:a2j:*" -> "midihub:in""#)),
                           registry: GraphFixtures.registry)
    }

    /// Through the core's one entry: a listing with the new port, the tick when the rules
    /// are due (which asks for a listing), the listing that settles them.
    @Test func aJackPortAppearingIsConnectedAndPlaysVanishingEndsItsNotes() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let before = [PortFixtures.hubIn], after = [PortFixtures.hubIn, Self.jackKeys]
        func listed(_ ports: [PortDescriptor], changed: Bool, at time: Double) throws -> [HubEffect] {
            try core.handle(.portsListed(ports, directSenders: [], connections: [], changed: changed, at: HostTime(seconds: time)),
                            into: &sink)
        }
        func tick(at time: HostTime) throws -> [HubEffect] {
            try core.handle(.tick(TransportClock(now: time)), into: &sink)
        }
        _ = try listed(before, changed: false, at: 0)
        #expect(try listed(after, changed: true, at: 1) == [.ports(.portAppeared(Self.jackKeys))])
        #expect(try !tick(at: 1.1).contains(.listPorts))
        #expect(try tick(at: 1 + PortsCore.settleDelay).contains(.listPorts))
        #expect(try listed(after, changed: false, at: 1.6)
            == [.ports(.connect(Connection(Self.jackKeys.address, PortFixtures.hubIn.address))), .linkExternalNodes])

        _ = try core.handle(.midi(.noteOn(channel: 2, note: 48, velocity: 80), from: Self.jackKeys.address, at: 2), into: &sink)
        #expect(sink.messages(at: "piano") == [.noteOn(channel: 2, note: 48, velocity: 80)])

        // The JACK server goes away: its ports leave with it.
        var released = RecordingSink()
        #expect(try core.handle(.portsListed(before, directSenders: [], connections: [], changed: true, at: 3), into: &released)
            == [.portLeft(Self.jackKeys, releasedNotesAt: ["piano"])])
        #expect(released.messages(at: "piano").contains(.noteOff(channel: 2, note: 48, velocity: 0)))
        #expect(try tick(at: 3 + PortsCore.settleDelay).contains(.listPorts))
        #expect(try listed(before, changed: false, at: 3.6) == [.linkExternalNodes])
        #expect(core.snapshot.graph.node("keys") != nil)
    }
}
