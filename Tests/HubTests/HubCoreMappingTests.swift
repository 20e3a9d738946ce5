import HubTestSupport
import MIDICore
import Testing
@testable import Hub

/// Values the mappings set from live MIDI, landed by `HubCore.applyMapped`.
@Suite struct HubCoreMappingTests {
    static func core() throws -> HubCore {
        let verse = Scene(name: "verse", program: 4, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800)])
        return try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: [verse]), registry: GraphFixtures.registry)
    }

    static func apply(_ node: NodeID, _ parameter: String, _ value: Float, at time: Double = 3,
                      to core: inout HubCore) -> [HubEffect] {
        var effects: [HubEffect] = []
        core.applyMapped(MappingEngine.Change(node: node, parameter: parameter, value: value), at: HostTime(seconds: time), into: &effects)
        return effects
    }

    @Test func aNodesValueLandsAtTheFrameOfTheMessage() throws {
        var core = try Self.core()
        #expect(Self.apply("piano", "cutoff", 2000, at: 3.5, to: &core)
            == [.setNodeParameter(node: "piano", parameter: "cutoff", value: 2000, at: 3.5),
                .parameterChanged(node: "piano", parameter: "cutoff", value: 2000)])
        #expect(core.state.graph.node("piano")?.parameters["cutoff"] == 2000)
    }

    @Test func theTempoAndAProcessorMoveWithoutTheRenderThread() throws {
        var core = try Self.core()
        #expect(Self.apply("transport", "tempo", 140, to: &core)
            == [.setEngineTempo(140), .parameterChanged(node: "transport", parameter: "tempo", value: 140)])
        #expect(core.router.clock.beatsPerMinute == 140)
        #expect(Self.apply("up", "semitones", 7, to: &core) == [.parameterChanged(node: "up", parameter: "semitones", value: 7)])
        #expect(core.router.processorParameters("up")?.value(named: "semitones") == 7)
    }

    @Test func aTargetThatIsGoneIsSkipped() throws {
        var core = try Self.core()
        let before = core.state
        #expect(Self.apply("organ", "cutoff", 1, to: &core).isEmpty)
        #expect(Self.apply("piano", "resonance", 1, to: &core).isEmpty)
        #expect(Self.apply("up", "shift", 1, to: &core).isEmpty)
        #expect(Self.apply("transport", "swing", 1, to: &core).isEmpty)
        #expect(core.state == before)
    }

    @Test func aProgramSwitchesItsScene() throws {
        var core = try Self.core()
        #expect(Self.apply("scene", "program", 4, to: &core).last == .sceneChanged("verse"))
        #expect(core.currentScene == "verse")
    }

    /// A mapped trigger fires at the turn's tick, on the clock the tick brings (no effect goes
    /// back through the shell), when its value rose into the top half.
    @Test func aTriggerIsPressedWhenItsValueRisesIntoTheTopHalfAndFiresAtTheTick() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        func fired(moving value: Float, at time: Double) throws -> Bool {
            #expect(Self.apply("trigger", "panic", value, at: time, to: &core).isEmpty)
            let effects = try core.handle(.tick(TransportClock(now: HostTime(seconds: time))), into: &sink)
            return effects.contains(.triggerFired("panic"))
        }
        #expect(try fired(moving: 1, at: 1))
        #expect(try !fired(moving: 0.8, at: 2))
        #expect(try !fired(moving: 0, at: 3))
        #expect(try fired(moving: 0.5, at: 4))
    }

    /// A mapped move to a built-in node lands through the target resolved for the graph and
    /// the mappings: the node's index, the parameter's description, the value clamped and kept
    /// in the graph in place; after a graph change the index follows the node.
    @Test func aMappedMoveLandsByTheNodesIndexResolvedOnce() throws {
        var core = try Self.core()
        core.mappings = MappingEngine([Mapping(source: .controller(74), targets: [
            MappingTarget(node: "piano", parameter: "cutoff", low: 0, high: 40000)])])
        let piano = try #require(core.router.graph.node("piano"))
        let cutoff = try #require(GraphFixtures.registry.parameters(of: piano.body)?.first { $0.name == "cutoff" })
        func move(_ value: UInt8, at time: Double) -> [HubEffect] {
            var changes: [MappingEngine.Change] = [], effects: [HubEffect] = []
            _ = core.mappings.handle(.controlChange(channel: 0, controller: 74, value: value), device: 1, sources: ["keys"],
                                     time: HostTime(seconds: time), into: &changes)
            for change in changes { core.applyMapped(change, at: HostTime(seconds: time), into: &effects) }
            return effects
        }
        #expect(move(127, at: 1) == [
            .setResolvedParameter(node: "piano", index: 2, parameter: cutoff, value: 20000, at: 1),
            .parameterChanged(node: "piano", parameter: "cutoff", value: 20000)])
        #expect(core.state.graph.node("piano")?.parameters["cutoff"] == 20000)
        var sink = RecordingSink()
        _ = try core.changeGraph(core.router.graph.removing("up"), at: 2, into: &sink)
        #expect(core.router.graph.nodes.firstIndex { $0.id == "piano" } == 1)
        #expect(move(0, at: 3).first == .setResolvedParameter(node: "piano", index: 1, parameter: cutoff, value: 20, at: 3))
        #expect(core.state.graph.node("piano")?.parameters["cutoff"] == 20)
    }
}
