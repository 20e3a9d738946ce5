import MIDICore
import RenderCore
import Testing
@testable import Hub
import HubTestSupport

@Suite struct MIDIRouterTests {
    @Test func routesThroughTheProcessorKeepingTheTimestamp() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: RouterFixtures.keyboard, time: 12.345, into: &sink)
        #expect(sink.messages(at: "synth") == [.noteOn(channel: 0, note: 72, velocity: 100)])
        #expect(sink.messages(at: "fluid") == [.noteOn(channel: 0, note: 72, velocity: 100)])
        #expect(sink.delivered.allSatisfy { $0.event.time == 12.345 })
    }

    @Test func ignoresPortsNoSourceSelects() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: RouterFixtures.app, time: 0, into: &sink)
        #expect(sink.delivered.isEmpty)
    }

    @Test func unplugReleasesExactlyTheHeldNotesAndSustain() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        var sink = RecordingSink()
        for message: MIDIMessage in [.noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 64, velocity: 90),
                                     .noteOff(channel: 0, note: 64, velocity: 0), .controlChange(channel: 0, controller: 64, value: 127)] {
            router.route(message, from: RouterFixtures.keyboard, time: 1, into: &sink)
        }
        var released = RecordingSink()
        let nodes = router.unplug(RouterFixtures.keyboard.identity, at: 2, into: &released)
        #expect(Set(nodes) == ["synth", "fluid"])
        let expected: [MIDIMessage] = [.noteOff(channel: 0, note: 72, velocity: 0), .controlChange(channel: 0, controller: 64, value: 0)]
        #expect(released.messages(at: "synth") == expected)
        #expect(released.messages(at: "fluid") == expected)
        #expect(router.sounding.isEmpty)
    }

    @Test func removingAnInstrumentSendsItsNoteOffsAndExternalsGetAllNotesOff() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 2, note: 50, velocity: 80), from: RouterFixtures.keyboard, time: 1, into: &sink)
        let withoutSynth = try router.graph.removing("synth")
        var released = RecordingSink()
        try router.apply(withoutSynth, at: 2, into: &released)
        #expect(released.messages(at: "synth") == [.noteOff(channel: 2, note: 62, velocity: 0)])
        #expect(router.graph.node("synth") == nil)
        let withoutFluid = try router.graph.removing("fluid")
        var silenced = RecordingSink()
        try router.apply(withoutFluid, at: 3, into: &silenced)
        #expect(silenced.messages(at: "fluid") == NodeRelease.allNotesOff("fluid").messages)
    }

    @Test func parameterChangesReachTheProcessorAndAReplacementStartsFresh() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        try router.setProcessorParameter("up", "semitones", to: -5)
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 1), from: RouterFixtures.keyboard, time: 0, into: &sink)
        #expect(sink.messages(at: "synth") == [.noteOn(channel: 0, note: 55, velocity: 1)])
        let replaced = try router.graph.replacing("up", with: .processor(.transpose), parameters: ["semitones": 7])
        try router.apply(replaced, at: 1, into: &sink)
        #expect(router.processorParameters("up")?.value(named: "semitones") == 7)
        #expect(throws: ParameterError.self) { try router.setProcessorParameter("up", "nope", to: 1) }
    }
}

@Suite struct RouterTempoAndParameterTests {
    /// One home per value: the processor keeps none; it reads its node's value in the graph,
    /// so what the graph holds (a mapped move written in place, a request, clamped to the
    /// range) is what the next note gets, and what the lists read.
    @Test func aProcessorPlaysTheValueTheGraphHolds() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        let up = try #require(router.graph.nodes.firstIndex { $0.id == "up" })
        router.setParameter("semitones", ofNodeAt: up, to: 3)  // as a mapped move lands: the graph only
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 1), from: RouterFixtures.keyboard, time: 0, into: &sink)
        #expect(sink.messages(at: "synth") == [.noteOn(channel: 0, note: 63, velocity: 1)])
        try router.setProcessorParameter("up", "semitones", to: 900)
        #expect(router.graph.node("up")?.parameters["semitones"] == 48, "kept clamped to the range, as played")
        #expect(router.processorParameters("up")?.value(named: "semitones") == 48)
        #expect(throws: ParameterError.notFinite("semitones")) { try router.setProcessorParameter("up", "semitones", to: .nan) }
        router.route(.noteOn(channel: 0, note: 20, velocity: 1), from: RouterFixtures.keyboard, time: 1, into: &sink)
        #expect(sink.messages(at: "synth").last == .noteOn(channel: 0, note: 68, velocity: 1))
    }

    @Test func processorValuesSetAtRuntimeAreKeptInTheGraph() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        try router.setProcessorParameter("up", "semitones", to: -5)
        router.recordParameter("volume", of: "synth", value: 0.25)
        #expect(router.graph.node("up")?.parameters["semitones"] == -5)
        #expect(router.graph.node("synth")?.parameters["volume"] == 0.25)
        // A rebuilt router (the daemon after a restart) starts the processor at the kept value.
        var restored = try MIDIRouter(graph: router.graph)
        var sink = RecordingSink()
        restored.route(.noteOn(channel: 0, note: 60, velocity: 1), from: RouterFixtures.keyboard, time: 0, into: &sink)
        #expect(sink.messages(at: "synth") == [.noteOn(channel: 0, note: 55, velocity: 1)])
    }

    @Test func aTempoChangeKeepsTheBeatPosition() throws {
        var router = try MIDIRouter(graph: RouterFixtures.graph())
        #expect(router.clock.beats(at: 10) == 20)
        router.setTempo(60, at: 10)
        #expect(router.clock.beatsPerMinute == 60)
        #expect(abs(router.clock.beats(at: 10) - 20) < 1e-9)
        #expect(abs(router.clock.beats(at: 12) - 22) < 1e-9)
    }
}

extension MIDIRouterTests {
    /// keys → arpeggiator → synth at the hub's 120 BPM; a song starting at 2.93 s at 100 BPM
    /// moves the arpeggio onto the song's beats; the song stopping hands it back to the hub's.
    @Test func theArpeggiatorPlaysOnTheSongsBeatsWhileItPlays() throws {
        let graph = try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
                                         GraphNode(id: "arp", body: .processor(.arpeggiator)), RouterFixtures.synth],
                                 routes: [Route("keys", "arp"), Route("arp", "synth")])
        var router = try MIDIRouter(graph: graph)
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: RouterFixtures.keyboard, time: 2.0, into: &sink)
        router.generate(until: 2.0, into: &sink)
        router.generate(until: 3.0, into: &sink)
        router.followSong(TempoClock(beatsPerMinute: 100, origin: 2.93), at: 2.93)
        router.generate(until: 4.0, into: &sink)
        router.followSong(nil, at: 4.0)
        router.generate(until: 5.0, into: &sink)
        let steps = sink.delivered.filter { if case .noteOn = $0.event.message { $0.node == "synth" } else { false } }.map(\.event.time.seconds)
        let expected = [2.0, 2.25, 2.5, 2.75, 3.23, 3.53, 3.83, 4.0, 4.25, 4.5, 4.75]
        #expect(steps.count == expected.count, "\(steps)")
        for (step, time) in zip(steps, expected) { #expect(abs(step - time) < 1e-9, "\(steps)") }
    }
}
