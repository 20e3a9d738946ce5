import Testing
@testable import Hub

@Suite struct AudioRoutesTests {
    typealias F = GraphFixtures
    static let bass = GraphNode(id: "bass", body: .unit(F.synth))

    @Test func aChainIsWiredAsRouted() throws {
        let routes = try F.chain().audioRoutes
        #expect(routes.nodes == ["piano", "verb"])
        #expect(routes.inputs == ["verb": ["piano"]])
        #expect(routes.toOutput == ["verb"])
        #expect(routes.unheard.isEmpty)
    }

    @Test func anInsertOnOneStripLeavesTheOtherDry() throws {
        // piano → verb → out, bass → out: the bass does not pass through the reverb.
        let graph = try HubGraph(nodes: [F.keys, F.piano, Self.bass, F.verb, F.out],
                                 routes: [Route("keys", "piano"), Route("keys", "bass"), Route("piano", "verb"),
                                          Route("verb", "out"), Route("bass", "out")])
        let routes = graph.audioRoutes
        #expect(routes.inputs == ["verb": ["piano"]])
        #expect(Set(routes.toOutput) == ["verb", "bass"])
        #expect(routes.nodes.firstIndex(of: "piano")! < routes.nodes.firstIndex(of: "verb")!)
    }

    @Test func anAudioInputFeedsEffectsLikeAnInstrument() throws {
        // guitar → verb → out beside piano → out: the input is a render node, first in order.
        let graph = try HubGraph(nodes: [F.keys, F.piano, F.guitar, F.verb, F.out],
                                 routes: [Route("keys", "piano"), Route("guitar", "verb"), Route("verb", "out"),
                                          Route("piano", "out")])
        let routes = graph.audioRoutes
        #expect(Set(routes.nodes) == ["piano", "guitar", "verb"])
        #expect(routes.nodes.firstIndex(of: "guitar")! < routes.nodes.firstIndex(of: "verb")!)
        #expect(routes.inputs == ["verb": ["guitar"]])
        #expect(Set(routes.toOutput) == ["verb", "piano"])
    }

    @Test func outputsOnAnotherDevicePlayThereAndOutputsOnTheSameDeviceSum() throws {
        // piano → out (default) and → phones (hw:2,0); bass → monitor (default again) and → phones;
        // verb → loop (hw:Loopback,0,1); the bass alone is heard nowhere else.
        let phones = GraphNode(id: "phones", body: .output("hw:2,0"))
        let monitor = GraphNode(id: "monitor", body: .output("default"))
        let loop = GraphNode(id: "loop", body: .output("hw:Loopback,0,1"))
        let graph = try HubGraph(nodes: [F.keys, F.piano, Self.bass, F.verb, F.out, phones, monitor, loop],
                                 routes: [Route("keys", "piano"), Route("keys", "bass"), Route("piano", "out"),
                                          Route("piano", "phones"), Route("bass", "monitor"), Route("bass", "phones"),
                                          Route("piano", "verb"), Route("verb", "loop")])
        let routes = graph.audioRoutes
        #expect(Set(routes.toOutput) == ["piano", "bass"], "out and monitor are the same device: the main one")
        #expect(routes.otherOutputs.map(\.device) == ["hw:2,0", "hw:Loopback,0,1"], "in the order the graph names them")
        #expect(routes.otherOutputs.map(\.outputs) == [["phones"], ["loop"]])
        #expect(Set(routes.otherOutputs[0].sources) == ["piano", "bass"])
        #expect(routes.otherOutputs[1].sources == ["verb"])
        #expect(routes.unheard.isEmpty, "the reverb is heard on the loopback")
    }

    @Test func anAudioInputTakesNoMIDI() {
        #expect(throws: GraphError.self) {
            try HubGraph(nodes: [F.keys, F.guitar, F.out], routes: [Route("keys", "guitar"), Route("guitar", "out")])
        }
    }

    @Test func withoutAnOutputNodeWhatFeedsNoOtherNodeIsHeard() throws {
        let graph = try HubGraph(nodes: [F.keys, F.piano, Self.bass, F.verb],
                                 routes: [Route("keys", "piano"), Route("keys", "bass"), Route("piano", "verb")])
        #expect(Set(graph.audioRoutes.toOutput) == ["verb", "bass"])
        #expect(graph.audioRoutes.unheard.isEmpty)
    }

    @Test func aBypassedEffectsInputsGoWhereItsOutputWent() throws {
        // piano → verb → echo → out with both effects bypassed: the output takes the piano;
        // each effect still takes its own input (its tail goes on), and neither is "unheard".
        let echo = GraphNode(id: "echo", body: .unit(F.reverb), parameters: ["bypass": 1])
        let verb = GraphNode(id: "verb", body: .unit(F.reverb), parameters: ["bypass": 1])
        let graph = try HubGraph(nodes: [F.keys, F.piano, verb, echo, F.out],
                                 routes: [Route("keys", "piano"), Route("piano", "verb"), Route("verb", "echo"), Route("echo", "out")])
        let routes = graph.audioRoutes
        #expect(routes.toOutput == ["piano"])
        #expect(routes.inputs == ["verb": ["piano"], "echo": ["verb"]])
        #expect(routes.bypassed == ["verb", "echo"])
        #expect(routes.unheard.isEmpty)
        // Back in (bypass below one half): the chain as routed.
        let back = try HubGraph(nodes: [F.keys, F.piano, GraphNode(id: "verb", body: .unit(F.reverb), parameters: ["bypass": 0.2]), F.out],
                                routes: [Route("keys", "piano"), Route("piano", "verb"), Route("verb", "out")])
        #expect(back.audioRoutes.toOutput == ["verb"])
        #expect(back.audioRoutes.bypassed.isEmpty)
    }

    @Test func onlyEffectsAreBypassed() throws {
        let piano = GraphNode(id: "piano", body: .unit(F.synth), parameters: ["bypass": 1])
        let graph = try HubGraph(nodes: [F.keys, piano, F.out], routes: [Route("keys", "piano"), Route("piano", "out")])
        #expect(graph.audioRoutes.toOutput == ["piano"])
        #expect(!piano.isBypassed && !piano.canBypass)
        #expect(F.registry.parameters(of: F.verb.body)?.last == .bypass, "an effect lists the host's bypass")
        #expect(F.registry.parameters(of: F.piano.body)?.contains(.bypass) == false)
    }

    @Test func aNodeRoutedToNoOutputIsNamedUnheard() throws {
        // The bass is played but routed nowhere; the reverb takes the piano but goes nowhere either.
        let graph = try HubGraph(nodes: [F.keys, F.piano, Self.bass, F.verb, F.out],
                                 routes: [Route("keys", "piano"), Route("keys", "bass"), Route("piano", "out"),
                                          Route("piano", "verb")])
        let routes = graph.audioRoutes
        #expect(routes.toOutput == ["piano"])
        #expect(Set(routes.unheard) == ["bass", "verb"])
    }
}
