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
