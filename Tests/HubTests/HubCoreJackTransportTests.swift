import HubTestSupport
import MIDICore
import Testing
import Transport
import Hub

/// JACK transport in (docs/jack.md#jack-transport): with a patch's `transport: follow`, what
/// JACK's transport does (rolling or not, at a position in seconds) the song does, through
/// `HubCore`'s one entry as the daemon feeds it when the hub's JACK client sees it change.
@Suite struct HubCoreJackTransportTests {
    typealias Fixture = HubCoreTransportTests

    /// The transport tests' core and two-bar song (a quarter is 0.5 s), with `transport:` as given.
    static func core(_ mode: JackTransportMode?) throws -> HubCore {
        var core = try Fixture.core()
        var state = core.snapshot.state
        state.jackTransport = mode
        core = try HubCore(state: state, registry: GraphFixtures.registry)
        try Fixture.feed(.portsListed([Fixture.keyboard], directSenders: [], connections: [], changed: false, at: 0), to: &core)
        try Fixture.feed(.transport(.load([Fixture.song()]), Fixture.clock(10)), to: &core)
        return core
    }

    static func position(_ core: HubCore, at now: Double) -> Tick {
        core.snapshot.transport.player.position(at: TransportTime(seconds: now))
    }

    @Test func jacksTransportStartsLocatesAndStopsTheSong() throws {
        var core = try Self.core(.follow)
        // JACK rolls from 0.5 s: the song plays from its second quarter, D4 first, at the action's time.
        let started = try Fixture.feed(.jackTransport(rolling: true, seconds: 0.5, Fixture.clock(10)), to: &core).effects
        #expect(core.snapshot.transport.player.state == .playing)
        // The notes come with the owner's next turn, as a MIDI clock master's do.
        let first = try Fixture.play(try Fixture.feed(.tick(Fixture.clock(10)), to: &core).effects, in: &core)
        #expect(first.first == TimedMIDI(time: 10.01, message: .noteOn(channel: 0, note: 62, velocity: 90)), "\(first)")
        #expect(started.last == .transportChanged)

        // Located while rolling to 1.5 s: it plays on from F4.
        let located = try Fixture.feed(.jackTransport(rolling: true, seconds: 1.5, Fixture.clock(10.2)), to: &core).effects
        #expect(located.first == .dropScheduled)
        let after = try Fixture.play(try Fixture.feed(.tick(Fixture.clock(10.2)), to: &core).effects, in: &core)
        #expect(after.first == TimedMIDI(time: 10.21, message: .noteOn(channel: 0, note: 65, velocity: 90)), "\(after)")

        // Stopped at 1.75 s: the song stops there.
        try Fixture.feed(.jackTransport(rolling: false, seconds: 1.75, Fixture.clock(10.5)), to: &core)
        #expect(core.snapshot.transport.player.state != .playing)
        #expect(Self.position(core, at: 11) == Tick(3 * 480 + 240))

        // Located while stopped, to 0.25 s: it waits there.
        try Fixture.feed(.jackTransport(rolling: false, seconds: 0.25, Fixture.clock(11)), to: &core)
        #expect(core.snapshot.transport.player.state != .playing)
        #expect(Self.position(core, at: 12) == Tick(240))
    }

    @Test func withoutTransportFollowJacksTransportChangesNothing() throws {
        var core = try Self.core(nil)
        let effects = try Fixture.feed(.jackTransport(rolling: true, seconds: 0.5, Fixture.clock(10)), to: &core).effects
        #expect(effects.isEmpty)
        #expect(core.snapshot.transport.player.state == .stopped)
    }
}
