import HubTestSupport
import MIDICore
import RenderCore
import Testing
import Hub

/// Triggers fired through `HubCore`: those that act on the hub's own state.
@Suite struct HubCoreTriggerTests {
    static let bypassVerb = Trigger(name: "dry", action: .bypass(node: "verb"))
    static let toVerse = Trigger(name: "verse", action: .scene("verse"))

    static func core() throws -> HubCore {
        let verse = Scene(name: "verse", values: [SceneValue(node: "piano", parameter: "cutoff", value: 800)])
        return try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: [verse], triggers: [bypassVerb, toVerse]),
                           registry: GraphFixtures.registry)
    }

    /// Fires `name` through the core's entry; the effects but the last, which publishes the firing.
    static func fire(_ name: String, at time: Double = 1, in core: inout HubCore) throws -> (RecordingSink, [HubEffect]) {
        var sink = RecordingSink()
        let effects = try core.handle(.fire(name, at: HostTime(seconds: time), clock: TransportClock(now: TransportTime(seconds: time)), stamp: "stamp"), into: &sink)
        #expect(effects.last == .triggerFired(name))
        return (sink, Array(effects.dropLast()))
    }

    @Test func panicEndsEveryNoteAndSoundsOffTheBuiltInNodes() throws {
        var core = try Self.core()
        var played = RecordingSink()
        _ = try core.handle(.portsListed([PortFixtures.launchkey], directSenders: [], connections: [], changed: false, at: 0),
                            into: &played)
        _ = try core.handle(.midi(.noteOn(channel: 0, note: 60, velocity: 100), from: PortFixtures.launchkey.address, at: 0),
                            into: &played)
        #expect(played.messages(at: "piano") == [.noteOn(channel: 0, note: 72, velocity: 100)])
        let (sink, effects) = try Self.fire("panic", at: 2, in: &core)
        let atPiano = sink.messages(at: "piano")
        #expect(atPiano.contains(.noteOff(channel: 0, note: 72, velocity: 0)))
        #expect((0..<16).allSatisfy { atPiano.contains(.controlChange(channel: $0, controller: 120, value: 0)) })
        #expect(effects == [.log("panic: every note ended")])
    }

    @Test func tapTempoMovesTheTempoFromTheSecondTap() throws {
        var core = try Self.core()
        #expect(try Self.fire("tap tempo", at: 10, in: &core).1.isEmpty)
        let tap = try #require(core.snapshot.allTriggers.first { $0.name == "tap tempo" })
        #expect(core.snapshot.state(of: tap, at: 10.2) == .alternate, "primed")
        let (_, effects) = try Self.fire("tap tempo", at: 10.5, in: &core)
        #expect(effects.first == .setEngineTempo(120))
        #expect(effects.contains(.parameterChanged(node: "transport", parameter: "tempo", value: 120)))
        #expect(core.snapshot.state.tempo == 120)
        _ = try Self.fire("tap tempo", at: 11.1, in: &core)  // intervals 0.5 and 0.6 s: 109 BPM
        #expect(abs(core.snapshot.state.tempo - 60 / 0.55) < 0.01)
    }

    @Test func aBypassTriggerFlipsItsEffectAndIsDisabledWhenTheEffectIsGone() throws {
        var core = try Self.core()
        _ = try Self.fire("dry", in: &core)
        #expect(core.snapshot.state.graph.node("verb")?.isBypassed == true)
        _ = try Self.fire("dry", in: &core)
        #expect(core.snapshot.state.graph.node("verb")?.isBypassed == false)
        var sink = RecordingSink()
        _ = try core.handle(.editGraph(.remove("verb"), at: 2), into: &sink)
        #expect(throws: HubRefusal(.triggerDisabled, "trigger 'dry' is disabled: the patch's effect 'verb' is gone",
                                   fix: "load the patch again, or add the node back")) { try Self.fire("dry", in: &core) }
    }

    @Test func aSceneTriggerSwitchesAndATransportTriggerWithoutASongIsDisabled() throws {
        var core = try Self.core()
        #expect(try Self.fire("verse", in: &core).1.last == .sceneChanged("verse"))
        let before = core.snapshot.state
        #expect(throws: HubRefusal(.triggerDisabled, "trigger 'play' is disabled: the hub plays no sequence",
                                   fix: "load one with 'midihub transport load FILE' or 'midihub play FILE'")) {
            try Self.fire("play", in: &core)
        }
        #expect(core.snapshot.state == before && core.snapshot.transport.player.state == .stopped)
    }

    @Test func anUnknownTriggerIsRefusedWithTheKnownOnes() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        let before = core.snapshot.state
        func fireEncore() throws(HubRefusal) {
            _ = try core.handle(.fire("encore", at: 1, clock: TransportClock(now: 1), stamp: "stamp"), into: &sink)
        }
        #expect(throws: HubRefusal.self) { try fireEncore() }
        do {
            try fireEncore()
            Issue.record("an unknown trigger fired")
        } catch {
            #expect(error.kind == .unknownTrigger)
            #expect(error.fix?.hasPrefix("use one of panic, tap tempo, play") == true)
            #expect(error.fix?.hasSuffix("dry, verse") == true)
        }
        #expect(sink.delivered.isEmpty && core.snapshot.state == before)
    }
}
