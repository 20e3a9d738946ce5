import MIDICore
import Testing
@testable import Hub
import HubTestSupport

/// An external processor (another app that transforms MIDI, e.g. midish as a transposer):
/// the hub sends it MIDI, and what it sends back from a port of its client enters the graph
/// at its node and goes on along its routes.
@Suite struct ProcessorReturnTests {
    static let midishIn = PortDescriptor(address: PortAddress(client: 129, port: 0), clientName: "midish", portName: "midish/0",
                                         portClass: .app, direction: .input)
    static let midishOut = PortDescriptor(address: PortAddress(client: 129, port: 1), clientName: "midish", portName: "midish/1",
                                          portClass: .app, direction: .output)
    static let otherApp = PortDescriptor(address: PortAddress(client: 130, port: 0), clientName: "vmpk", portName: "out",
                                         portClass: .app, direction: .output)

    /// keys (hardware) → shift (midish, a processor) → synth; any app also plays the synth.
    static func graph() throws -> HubGraph {
        try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
                             GraphNode(id: "apps", body: .source(PortSelector(portClass: .app))),
                             GraphNode(id: "shift", body: .external(ExternalNode(port: PortSelector(client: NamePattern(glob: "midish")),
                                                                                 role: .processor))),
                             RouterFixtures.synth],
                     routes: [Route("keys", "shift"), Route("shift", "synth", channels: [1]), Route("apps", "synth")])
    }

    @Test func whatTheProcessorSendsBackGoesOnAlongItsRoutes() throws {
        var router = try MIDIRouter(graph: Self.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 60, velocity: 100), from: RouterFixtures.keyboard, time: 1, into: &sink)
        #expect(sink.messages(at: "shift") == [.noteOn(channel: 0, note: 60, velocity: 100)])
        #expect(sink.messages(at: "synth").isEmpty)
        // midish transposed it and sends it back; the route from shift passes channel 1 only.
        router.route(.noteOn(channel: 0, note: 72, velocity: 100), from: Self.midishOut, time: 2, into: &sink)
        router.route(.noteOn(channel: 1, note: 72, velocity: 100), from: Self.midishOut, time: 2, into: &sink)
        #expect(sink.messages(at: "synth") == [.noteOn(channel: 0, note: 72, velocity: 100)])
        #expect(sink.messages(at: "shift").count == 1, "the return does not go round to the processor again")
    }

    @Test func theReturnEntersOnlyAtTheProcessorNotAtAMatchingSource() throws {
        var router = try MIDIRouter(graph: Self.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 72, velocity: 100), from: Self.midishOut, time: 1, into: &sink)
        #expect(sink.messages(at: "synth").count == 1, "midish is an app, but its return is not also the 'apps' source's")
        router.route(.noteOn(channel: 0, note: 50, velocity: 100), from: Self.otherApp, time: 1, into: &sink)
        #expect(sink.messages(at: "synth").count == 2, "another app still plays through the 'apps' source")
    }

    @Test func notesTheProcessorSentBackEndWhenItIsRemoved() throws {
        var router = try MIDIRouter(graph: Self.graph())
        var sink = RecordingSink()
        router.route(.noteOn(channel: 0, note: 72, velocity: 100), from: Self.midishOut, time: 1, into: &sink)
        var released = RecordingSink()
        try router.apply(router.graph.removing("shift"), at: 2, into: &released)
        #expect(released.messages(at: "synth") == [.noteOff(channel: 0, note: 72, velocity: 0)])
    }

    @Test func onlyAProcessorsSendingPortsAreItsReturn() {
        let processor = ExternalNode(port: PortSelector(client: NamePattern(glob: "midish"), port: NamePattern(glob: "midish/0")),
                                     role: .processor)
        #expect(processor.sendsBack(from: Self.midishOut), "any sending port of the client, not only the one the selector names")
        #expect(!processor.sendsBack(from: Self.midishIn), "a port that only receives sends nothing back")
        #expect(!processor.sendsBack(from: Self.otherApp))
        #expect(!ExternalNode(port: processor.port, role: .instrument).sendsBack(from: Self.midishOut), "an instrument sends nothing back")
    }
}
