import MIDICore
import RenderCore
import HubTestSupport
import Testing
import Hub

/// `HubCore` driven directly: commands in, effects and MIDI out, no daemon, no ALSA.
@Suite struct HubCoreTests {
    static let keyboard = PortFixtures.launchkey

    static func core(_ graph: HubGraph? = nil, rules: [ConnectionRule] = [], scenes: [Scene] = []) throws -> HubCore {
        try HubCore(state: HubState(graph: graph ?? GraphFixtures.chain(), rules: rules, tempo: 120, scenes: scenes),
                    registry: GraphFixtures.registry)
    }

    /// The chain with `piano` removed (its routes with it).
    static func withoutPiano() throws -> HubGraph {
        try GraphFixtures.chain().removing("piano").new
    }

    /// The keyboard (and the hub's input) listed, so the keyboard's MIDI reaches the graph.
    static func listKeyboard(in core: inout HubCore) throws {
        var sink = RecordingSink()
        _ = try core.handle(.portsListed([Self.keyboard, PortFixtures.hubIn], directSenders: [], connections: [], changed: false, at: 0),
                            into: &sink)
    }

    /// Plays `message` from the keyboard at `time`: what the core sends.
    static func play(_ message: MIDIMessage, at time: HostTime, in core: inout HubCore) throws -> RecordingSink {
        var sink = RecordingSink()
        _ = try core.handle(.midi(message, from: Self.keyboard.address, at: time), into: &sink)
        return sink
    }

    @Test func removingANodeWithNotesHeldEndsThemThereAndSwapsTheProgram() throws {
        var core = try Self.core()
        try Self.listKeyboard(in: &core)
        var played = RecordingSink()
        for note: UInt8 in [60, 64] {
            _ = try core.handle(.midi(.noteOn(channel: 0, note: note, velocity: 100), from: Self.keyboard.address, at: 1), into: &played)
        }
        #expect(played.messages(at: "piano").count == 2)

        var released = RecordingSink()
        let effects = try core.handle(.editGraph(.remove("piano"), at: 2), into: &released)

        // Transposed up an octave on the way in, released as played.
        #expect(Set(released.messages(at: "piano")) == [.noteOff(channel: 0, note: 72, velocity: 0),
                                                         .noteOff(channel: 0, note: 76, velocity: 0)])
        #expect(released.delivered.allSatisfy { $0.event.time == 2 })
        #expect(effects.first == .installProgram(try Self.withoutPiano(), stopped: [GraphFixtures.piano], routes: nil))
        #expect(effects.contains(.nodeRemoved("piano")))
        #expect(effects.contains(.log("node piano removed")))
        #expect(Array(effects.suffix(2)) == [.linkExternalNodes, .save(core.snapshot.state)])
        #expect(core.snapshot.state.graph.node("piano") == nil)
        // The keyboard's next note reaches no node that is gone.
        let after = try Self.play(.noteOn(channel: 0, note: 62, velocity: 90), at: 3, in: &core)
        #expect(after.delivered.isEmpty)
    }

    @Test func aReplacedNodeIsNotReportedGone() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let effects = try core.handle(.editGraph(.replace("verb", with: .unit(GraphFixtures.reverb), parameters: ["mix": 0.5]), at: 0),
                                      into: &sink)
        #expect(effects.contains(.log("node verb replaced")))
        #expect(!effects.contains(.nodeRemoved("verb")))
    }

    /// A change the router refuses (a processor parameter its type lacks), whether an edit or a
    /// patch's graph that would also cut off the notes held at `piano`: nothing is sent, the
    /// graph stays.
    @Test func aRefusedChangeSendsNothingAndKeepsTheGraph() throws {
        var core = try Self.core()
        try Self.listKeyboard(in: &core)
        _ = try Self.play(.noteOn(channel: 0, note: 60, velocity: 100), at: 1, in: &core)
        let broken = try HubGraph(nodes: [GraphFixtures.keys, GraphNode(id: "up", body: .processor(.transpose), parameters: ["shift": 3]),
                                          GraphFixtures.out],
                                  routes: [Route("keys", "up")])
        var sink = RecordingSink()
        #expect(throws: HubRefusal.self) {
            try core.handle(.editGraph(.replace("up", with: .processor(.transpose), parameters: ["shift": 3]), at: 2), into: &sink)
        }
        #expect(throws: HubRefusal.self) { try core.handle(.install(Patch(graph: broken, tempo: 120), at: 2), into: &sink) }
        #expect(sink.delivered.isEmpty)
        #expect(core.snapshot.state.graph == (try GraphFixtures.chain()))
        #expect(core.snapshot.state == (try Self.core()).snapshot.state)
    }

    @Test func anEmptyChangeDoesNothing() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let same = GraphEdit.replace("verb", with: GraphFixtures.verb.body, parameters: GraphFixtures.verb.parameters)
        #expect(try same.change(of: core.snapshot.graph).isEmpty)
        #expect(try core.handle(.editGraph(same, at: 0), into: &sink).isEmpty)
        #expect(sink.delivered.isEmpty)
    }

    @Test func aBuiltInParameterLandsAtItsFrameAndIsSaved() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let effects = try core.handle(.setParameter(node: "piano", "cutoff", to: 440, at: 5, frameTime: 4.5), into: &sink)
        #expect(try core.snapshot.parameterInfo(node: "piano", "cutoff").name == "cutoff")
        #expect(effects.first == .setNodeParameter(node: "piano", parameter: "cutoff", value: 440, at: 4.5))
        #expect(effects.contains(.parameterChanged(node: "piano", parameter: "cutoff", value: 440)))
        #expect(core.snapshot.state.graph.node("piano")?.parameters["cutoff"] == 440)
        #expect(effects.last == .save(core.snapshot.state))
    }

    @Test func aProcessorParameterMovesTheProcessorOnly() throws {
        var core = try Self.core()
        try Self.listKeyboard(in: &core)
        var none = RecordingSink()
        let effects = try core.handle(.setParameter(node: "up", "semitones", to: -12, at: 0, frameTime: nil), into: &none)
        #expect(!effects.contains { if case .setNodeParameter = $0 { true } else { false } })
        let sink = try Self.play(.noteOn(channel: 0, note: 60, velocity: 100), at: 1, in: &core)
        #expect(sink.messages(at: "piano") == [.noteOn(channel: 0, note: 48, velocity: 100)])
        #expect(core.snapshot.state.graph.node("up")?.parameters["semitones"] == -12)
    }

    @Test func refusedParametersChangeNothing() throws {
        var core = try Self.core()
        let before = core.snapshot.state
        var sink = RecordingSink()
        func set(_ node: NodeID, _ name: String, to value: Float) throws(HubRefusal) {
            _ = try core.handle(.setParameter(node: node, name, to: value, at: 0, frameTime: nil), into: &sink)
        }
        #expect(throws: HubRefusal(.unknownNode, "no node 'organ'", fix: "run 'midihub nodes' to list nodes")) {
            try set("organ", "cutoff", to: 1)
        }
        #expect(throws: HubRefusal(.invalidValue, "cutoff must lie in 20.0…20000.0", fix: "give a value in that range")) {
            try set("piano", "cutoff", to: 5)
        }
        #expect(throws: HubRefusal(.unknownParameter, "node 'verb' has no parameter 'size'", fix: "use one of mix, bypass")) {
            try set("verb", "size", to: 1)
        }
        #expect(throws: HubRefusal.self) { try set("out", "gain", to: 1) }
        #expect(core.snapshot.state == before)
    }

    @Test func bypassRewiresOnlyWhenItChanges() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let effects = try core.handle(.setParameter(node: "verb", "bypass", to: 1, at: 0, frameTime: nil), into: &sink)
        let bypassed = try #require(core.snapshot.state.graph.node("verb"))
        #expect(bypassed.isBypassed)
        #expect(effects.first == .installProgram(core.snapshot.state.graph, stopped: [], routes: nil))
        #expect(effects.contains(.log("node verb bypassed")))
        let again = try core.handle(.setParameter(node: "verb", "bypass", to: 1, at: 0, frameTime: nil), into: &sink)
        #expect(!again.contains { if case .installProgram = $0 { true } else { false } })
        #expect(again.contains(.parameterChanged(node: "verb", parameter: "bypass", value: 1)))
    }

    @Test func theTransportsTempoMovesTheClockAndTheEngine() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let effects = try core.handle(.setParameter(node: "transport", "tempo", to: 90, at: 10, frameTime: nil), into: &sink)
        #expect(effects.first == .setEngineTempo(90))
        #expect(core.snapshot.state.tempo == 90)
        #expect(core.snapshot.tempo == 90)
    }

    /// Mapped values (from a controller) for a parameter the node's type lacks, a node the
    /// graph does not have: nothing is set, no effect.
    @Test func aMappedValueForAParameterTheTypeLacksSetsNothing() throws {
        var core = try Self.core()
        try Self.listKeyboard(in: &core)
        let targets = [MappingTarget(node: "piano", parameter: "resonance", low: 0, high: 1),
                       MappingTarget(node: "organ", parameter: "cutoff", low: 0, high: 1),
                       MappingTarget(node: "guitar", parameter: "gain", low: 3, high: 3)]  // not in this graph
        var sink = RecordingSink()
        _ = try core.handle(.setMappings(targets.enumerated().map { index, target in
            Mapping(source: .controller(UInt8(20 + index)), targets: [target])
        }, graphRevision: nil), into: &sink)
        let before = core.snapshot.state
        #expect(before.graph == (try Self.core()).snapshot.state.graph)
        for index in targets.indices {
            var effects: [HubEffect] = []
            try core.handle(.midi(.controlChange(channel: 0, controller: UInt8(20 + index), value: 127), from: Self.keyboard.address, at: 1),
                            into: &sink, effects: &effects)
            #expect(effects.isEmpty)
        }
        #expect(sink.delivered.isEmpty)
        #expect(core.snapshot.state == before)
    }

    /// A patch replaces the graph, the rules, the tempo and the control surface: the scene
    /// switched to before is no longer current, and a mapped trigger's level starts again (a
    /// control held at its top presses it anew).
    @Test func aPatchReplacesEverythingAndTheRulesApply() throws {
        var core = try Self.core(scenes: [Scene(name: "old", values: [])])
        try Self.listKeyboard(in: &core)
        var sink = RecordingSink()
        let pad = Mapping(source: .controller(80), targets: [MappingTarget(node: "trigger", parameter: "panic", low: 0, high: 1)])
        func press(at time: HostTime) throws -> Bool {
            _ = try Self.play(.controlChange(channel: 0, controller: 80, value: 127), at: time, in: &core)
            return try core.handle(.tick(TransportClock(now: TransportTime(withoutAudio: time))), into: &sink).contains(.triggerFired("panic"))
        }
        _ = try core.handle(.switchScene("old", at: 1), into: &sink)
        #expect(core.snapshot.currentScene == "old")
        _ = try core.handle(.setMappings([pad], graphRevision: nil), into: &sink)
        #expect(try press(at: 1))
        #expect(try !press(at: 2), "held at the top: not pressed again")

        let rule = try ConnectionRule(parsing: #"connect hardware:* -> "midihub:in""#)
        let scene = Scene(name: "verse", program: 1, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800)])
        let patch = Patch(graph: try Self.withoutPiano(), rules: [rule], tempo: 100, mappings: [pad], scenes: [scene])
        let effects = try core.handle(.install(patch, at: 3), into: &sink)
        #expect(core.snapshot.state.graph == patch.graph)
        #expect(core.snapshot.state.rules == [rule])
        #expect(core.snapshot.state.tempo == 100)
        #expect(core.snapshot.scenes == [scene])
        #expect(core.snapshot.currentScene == nil)
        #expect(try press(at: 4), "the trigger's level starts again")
        #expect(effects.first == .installProgram(patch.graph, stopped: [GraphFixtures.piano], routes: nil))
        #expect(effects.contains(.setEngineTempo(100)))
        #expect(Array(effects.suffix(2)) == [.linkExternalNodes, .save(core.snapshot.state)])
        #expect(effects.filter { if case .save = $0 { true } else { false } }.count == 1)
    }

    @Test func rulesSetApplyAtOnceAndAreSaved() throws {
        var core = try Self.core()
        let rule = try ConnectionRule(parsing: #"connect hardware:* -> "midihub:in""#)
        var sink = RecordingSink()
        let effects = try core.handle(.setRules([rule]), into: &sink)
        #expect(effects == [.log("rules set (1)"), .linkExternalNodes, .save(core.snapshot.state)])
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
            try core.handle(.tick(TransportClock(now: TransportTime(withoutAudio: time))), into: &sink)
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
