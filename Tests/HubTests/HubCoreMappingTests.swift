import HubTestSupport
import MIDICore
import Testing
import Hub

/// Values the mappings set from live MIDI: mappings set through the core's entry, a
/// controller's message from a listed port, what lands (`HubCore.applyMapped`).
@Suite struct HubCoreMappingTests {
    static let keyboard = PortFixtures.launchkey

    static func core() throws -> HubCore {
        let verse = Scene(name: "verse", program: 4, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800)])
        var core = try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: [verse]), registry: GraphFixtures.registry)
        var sink = RecordingSink()
        _ = try core.handle(.portsListed([keyboard, PortFixtures.hubIn], directSenders: [], connections: [], changed: false, at: 0),
                            into: &sink)
        return core
    }

    /// A core whose mapping `i` moves `targets[i]` from controller 20 + i (absolute, jump).
    static func core(mapping targets: [MappingTarget]) throws -> HubCore {
        var core = try Self.core()
        var sink = RecordingSink()
        _ = try core.handle(.setMappings(targets.enumerated().map { index, target in
            Mapping(source: .controller(UInt8(20 + index)), targets: [target])
        }, graphRevision: nil), into: &sink)
        return core
    }

    /// A target that gives `value` wherever the control stands.
    static func target(_ node: NodeID, _ parameter: String, _ value: Float) -> MappingTarget {
        MappingTarget(node: node, parameter: parameter, low: value, high: value)
    }

    /// Moves controller 20 + `index` to `value` at `time`: the effects of the message (the MIDI
    /// the core sends goes to `sink`).
    static func move(_ index: Int, to value: UInt8 = 127, at time: Double = 3, in core: inout HubCore,
                     sink: inout RecordingSink) throws -> [HubEffect] {
        var effects: [HubEffect] = []
        try core.handle(.midi(.controlChange(channel: 0, controller: UInt8(20 + index), value: value), from: keyboard.address,
                              at: HostTime(seconds: time)),
                        into: &sink, effects: &effects)
        return effects
    }

    static func move(_ index: Int, to value: UInt8 = 127, at time: Double = 3, in core: inout HubCore) throws -> [HubEffect] {
        var sink = RecordingSink()
        let effects = try move(index, to: value, at: time, in: &core, sink: &sink)
        #expect(sink.delivered.isEmpty, "a mapping takes the message")
        return effects
    }

    /// A built-in node's value lands at the frame of the message (through the target resolved
    /// for the graph: the node's index, the parameter's description).
    @Test func aNodesValueLandsAtTheFrameOfTheMessage() throws {
        var core = try Self.core(mapping: [Self.target("piano", "cutoff", 2000)])
        let cutoff = try core.snapshot.parameterInfo(node: "piano", "cutoff")
        #expect(try Self.move(0, at: 3.5, in: &core)
            == [.setResolvedParameter(node: "piano", index: 2, parameter: cutoff, value: 2000, at: 3.5),
                .parameterChanged(node: "piano", parameter: "cutoff", value: 2000)])
        #expect(core.snapshot.state.graph.node("piano")?.parameters["cutoff"] == 2000)
    }

    @Test func theTempoAndAProcessorMoveWithoutTheRenderThread() throws {
        var core = try Self.core(mapping: [Self.target("transport", "tempo", 140), Self.target("up", "semitones", 7)])
        #expect(try Self.move(0, in: &core)
            == [.setEngineTempo(140), .parameterChanged(node: "transport", parameter: "tempo", value: 140)])
        #expect(core.snapshot.tempo == 140)
        #expect(try Self.move(1, in: &core) == [.parameterChanged(node: "up", parameter: "semitones", value: 7)])
        #expect(core.snapshot.processorParameters("up")?.value(named: "semitones") == 7)
    }

    @Test func aTargetThatIsGoneIsSkipped() throws {
        var core = try Self.core(mapping: [Self.target("organ", "cutoff", 1), Self.target("piano", "resonance", 1),
                                           Self.target("up", "shift", 1), Self.target("transport", "swing", 1)])
        let before = core.snapshot.state
        for index in 0..<4 { #expect(try Self.move(index, in: &core).isEmpty) }
        #expect(core.snapshot.state == before)
    }

    @Test func aProgramSwitchesItsScene() throws {
        var core = try Self.core(mapping: [Self.target("scene", "program", 4)])
        #expect(try Self.move(0, in: &core).last == .sceneChanged("verse"))
        #expect(core.snapshot.currentScene == "verse")
    }

    /// A mapped trigger fires at the turn's tick, on the clock the tick brings (no effect goes
    /// back through the shell), when its value rose into the top half.
    @Test func aTriggerIsPressedWhenItsValueRisesIntoTheTopHalfAndFiresAtTheTick() throws {
        // Controller positions 0, 42, 85 and 127 give 0, 0.5, 0.8 and 1.
        var core = try Self.core(mapping: [MappingTarget(node: "trigger", parameter: "panic", low: 0, high: 1,
                                                         values: [0, 0.5, 0.8, 1])])
        var sink = RecordingSink()
        func fired(moving position: UInt8, at time: Double) throws -> Bool {
            #expect(try Self.move(0, to: position, at: time, in: &core, sink: &sink).isEmpty)
            let effects = try core.handle(.tick(TransportClock(now: TransportTime(seconds: time))), into: &sink)
            return effects.contains(.triggerFired("panic"))
        }
        #expect(try fired(moving: 127, at: 1))
        #expect(try !fired(moving: 85, at: 2))
        #expect(try !fired(moving: 0, at: 3))
        #expect(try fired(moving: 42, at: 4))
    }

    /// A mapped move to a built-in node lands through the target resolved for the graph and
    /// the mappings: the node's index, the parameter's description, the value clamped and kept
    /// in the graph in place; after a graph change the index follows the node.
    @Test func aMappedMoveLandsByTheNodesIndexResolvedOnce() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        _ = try core.handle(.setMappings([Mapping(source: .controller(74), targets: [
            MappingTarget(node: "piano", parameter: "cutoff", low: 0, high: 40000)])], graphRevision: nil), into: &sink)
        let piano = try #require(core.snapshot.graph.node("piano"))
        let cutoff = try #require(GraphFixtures.registry.parameters(of: piano.body)?.first { $0.name == "cutoff" })
        func move(_ value: UInt8, at time: Double) throws -> [HubEffect] {
            var moved = RecordingSink()
            let effects = try core.handle(.midi(.controlChange(channel: 0, controller: 74, value: value), from: Self.keyboard.address,
                                                at: HostTime(seconds: time)), into: &moved)
            #expect(moved.delivered.isEmpty)
            return effects
        }
        #expect(try move(127, at: 1) == [
            .setResolvedParameter(node: "piano", index: 2, parameter: cutoff, value: 20000, at: 1),
            .parameterChanged(node: "piano", parameter: "cutoff", value: 20000)])
        #expect(core.snapshot.state.graph.node("piano")?.parameters["cutoff"] == 20000)
        _ = try core.handle(.editGraph(.remove("up"), at: 2), into: &sink)
        #expect(core.snapshot.graph.nodes.firstIndex { $0.id == "piano" } == 1)
        #expect(try move(0, at: 3).first == .setResolvedParameter(node: "piano", index: 1, parameter: cutoff, value: 20, at: 3))
        #expect(core.snapshot.state.graph.node("piano")?.parameters["cutoff"] == 20)
    }
}
