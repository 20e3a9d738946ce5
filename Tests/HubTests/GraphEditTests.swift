import MIDICore
import Testing
@testable import Hub

@Suite struct GraphEditTests {
    typealias F = GraphFixtures
    let keyboard = NoteOrigin(source: "keys", device: PortIdentity(device: "usb:1-2", portName: "MIDI 1"))

    @Test func addingStartsOnlyTheNewNode() throws {
        let change = try F.chain().adding(F.fluid, routes: [Route("up", "fluid")])
        #expect(change.started == [F.fluid])
        #expect(change.stopped.isEmpty)
        #expect(change.addedRoutes == [Route("up", "fluid")])
        #expect(change.new.node("fluid") == F.fluid)
    }

    @Test func failedEditLeavesNoPartialGraph() throws {
        let graph = try F.chain()
        #expect(throws: GraphError.self) { try graph.adding(F.fluid, routes: [Route("fluid", "out")]) }
        #expect(graph == (try F.chain()))
        #expect(throws: GraphError.unknownNode("organ", route: nil)) { try graph.removing("organ") }
        #expect(throws: GraphError.unknownRoute(Route("keys", "out"))) { try graph.disconnecting("keys", "out") }
    }

    @Test func removingAnInstrumentReleasesItsNotes() throws {
        var sounding = SoundingNotes()
        sounding.record(.noteOn(channel: 0, note: 72, velocity: 90), origin: keyboard, node: "piano")
        sounding.record(.controlChange(channel: 0, controller: 64, value: 127), origin: keyboard, node: "piano")
        let change = try F.chain().removing("piano")
        #expect(change.stopped == [F.piano])
        #expect(change.removedRoutes == [Route("up", "piano"), Route("piano", "verb")])
        let releases = change.releases(&sounding)
        #expect(releases == [NodeRelease(node: "piano", messages: [.noteOff(channel: 0, note: 72, velocity: 0),
                                                                   .controlChange(channel: 0, controller: 64, value: 0)])])
        #expect(sounding.isEmpty)
    }

    @Test func removingAnExternalNodeSendsAllNotesOff() throws {
        let graph = try F.chain().adding(F.fluid, routes: [Route("up", "fluid")]).new
        var sounding = SoundingNotes()
        sounding.record(.noteOn(channel: 3, note: 60, velocity: 90), origin: keyboard, node: "fluid")
        let releases = try graph.removing("fluid").releases(&sounding)
        #expect(releases == [.allNotesOff("fluid")])
        #expect(releases[0].messages.count == 32)
        #expect(releases[0].messages.contains(.controlChange(channel: 15, controller: 123, value: 0)))
    }

    @Test func replacingAProcessorReleasesNotesDownstream() throws {
        var sounding = SoundingNotes()
        sounding.record(.noteOn(channel: 0, note: 72, velocity: 90), origin: keyboard, node: "piano")
        let change = try F.chain().replacing("up", with: .processor(.transpose), parameters: ["semitones": -12])
        #expect(change.stopped.map(\.id) == ["up"] && change.started.map(\.id) == ["up"])
        #expect(change.releases(&sounding) == [NodeRelease(node: "piano", messages: [.noteOff(channel: 0, note: 72, velocity: 0)])])
    }

    @Test func unrelatedEditsKeepNotesSounding() throws {
        var sounding = SoundingNotes()
        sounding.record(.noteOn(channel: 0, note: 72, velocity: 90), origin: keyboard, node: "piano")
        let change = try F.chain().adding(F.fluid, routes: [Route("up", "fluid")])
        #expect(change.releases(&sounding).isEmpty)
        #expect(sounding.notes(origin: keyboard, node: "piano").map(\.note) == [72])
    }

    @Test func reroutingAroundAProcessorReleases() throws {
        var sounding = SoundingNotes()
        sounding.record(.noteOn(channel: 0, note: 72, velocity: 90), origin: keyboard, node: "piano")
        let bypass = try F.chain().connecting(Route("keys", "piano")).new.disconnecting("up", "piano")
        #expect(bypass.releases(&sounding).map(\.node) == ["piano"])
    }

    @Test func diffBetweenWholeGraphs() throws {
        let old = try F.chain()
        let new = try HubGraph(nodes: [F.keys, F.fluid], routes: [Route("keys", "fluid")])
        let change = GraphChange(from: old, to: new)
        #expect(change.started == [F.fluid])
        #expect(change.stopped.map(\.id) == ["up", "piano", "verb", "out"])
        #expect(GraphChange(from: new, to: new).isEmpty)
    }
}

@Suite struct SoundingNotesTests {
    let usb = PortIdentity(device: "usb:1-2", portName: "MIDI 1")
    let other = PortIdentity(device: "usb:1-3", portName: "MIDI 1")

    @Test func unplugReleasesExactlyTheDevicesNotesAtEveryNode() {
        var sounding = SoundingNotes()
        let a = NoteOrigin(source: "keys", device: usb), b = NoteOrigin(source: "keys", device: other)
        sounding.record(.noteOn(channel: 0, note: 60, velocity: 90), origin: a, node: "piano")
        sounding.record(.noteOn(channel: 1, note: 127, velocity: 90), origin: a, node: "piano")
        sounding.record(.noteOn(channel: 0, note: 0, velocity: 90), origin: a, node: "fluid")
        sounding.record(.controlChange(channel: 2, controller: 64, value: 100), origin: a, node: "fluid")
        sounding.record(.noteOn(channel: 0, note: 61, velocity: 90), origin: b, node: "piano")
        sounding.record(.noteOn(channel: 0, note: 62, velocity: 90), origin: a, node: "piano")
        sounding.record(.noteOff(channel: 0, note: 62, velocity: 0), origin: a, node: "piano")
        let releases = sounding.releaseDevice(usb)
        #expect(releases == [
            NodeRelease(node: "fluid", messages: [.noteOff(channel: 0, note: 0, velocity: 0),
                                                  .controlChange(channel: 2, controller: 64, value: 0)]),
            NodeRelease(node: "piano", messages: [.noteOff(channel: 0, note: 60, velocity: 0),
                                                  .noteOff(channel: 1, note: 127, velocity: 0)]),
        ])
        #expect(sounding.notes(origin: b, node: "piano").map(\.note) == [61])
        #expect(sounding.releaseDevice(usb).isEmpty)
    }

    @Test func noteOnWithZeroVelocityAndAllNotesOffClear() {
        var sounding = SoundingNotes()
        let origin = NoteOrigin(source: "keys")
        sounding.record(.noteOn(channel: 5, note: 64, velocity: 1), origin: origin, node: "n")
        sounding.record(.noteOn(channel: 5, note: 64, velocity: 0), origin: origin, node: "n")
        #expect(sounding.isEmpty)
        sounding.record(.noteOn(channel: 5, note: 64, velocity: 1), origin: origin, node: "n")
        sounding.record(.controlChange(channel: 5, controller: 123, value: 0), origin: origin, node: "n")
        #expect(sounding.isEmpty)
    }
}
