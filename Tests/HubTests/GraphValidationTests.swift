import Testing
@testable import Hub

@Suite struct GraphValidationTests {
    typealias F = GraphFixtures

    @Test func validChainHasForwardOrder() throws {
        let graph = try F.chain()
        #expect(graph.topologicalOrder == ["keys", "up", "piano", "verb", "out"])
        #expect(graph.sources(reaching: "out") == ["keys"])
    }

    @Test func refusesUnknownNodes() {
        #expect(throws: GraphError.unknownNode("organ", route: Route("keys", "organ"))) {
            try HubGraph(nodes: [F.keys], routes: [Route("keys", "organ")])
        }
    }

    @Test func refusesDuplicates() {
        #expect(throws: GraphError.duplicateNode("keys")) { try HubGraph(nodes: [F.keys, F.keys], routes: []) }
        #expect(throws: GraphError.duplicateRoute(Route("keys", "piano"))) {
            try HubGraph(nodes: [F.keys, F.piano], routes: [Route("keys", "piano"), Route("keys", "piano")])
        }
    }

    @Test func refusesSignalMismatches() throws {
        do {
            _ = try HubGraph(nodes: [F.keys, F.verb], routes: [Route("keys", "verb")])
            Issue.record("expected a mismatch")
        } catch {
            #expect(error == .signalMismatch(Route("keys", "verb"), sends: .midi, toKind: "effect", accepts: [.audio]))
            #expect(error.description == "route keys -> verb: 'keys' sends MIDI but 'verb' (effect) takes audio only "
                + "(fix: send MIDI to a processor, instrument or external node)")
        }
        #expect(throws: GraphError.producesNothing(Route("fluid", "piano"), kind: "external instrument")) {
            try HubGraph(nodes: [F.fluid, F.piano], routes: [Route("fluid", "piano")])
        }
        #expect(throws: GraphError.self) { try HubGraph(nodes: [F.piano, F.keys], routes: [Route("piano", "keys")]) }
    }

    @Test func refusesLoops() {
        let a = GraphNode(id: "a", body: .processor(.transpose)), b = GraphNode(id: "b", body: .processor(.chord(intervals: [7])))
        do {
            _ = try HubGraph(nodes: [F.keys, a, b], routes: [Route("keys", "a"), Route("a", "b"), Route("b", "a")])
            Issue.record("expected a loop")
        } catch {
            #expect(error == .cycle(["a", "b", "a"]))
            #expect(error.description.contains("a -> b -> a"))
        }
    }

    /// 100,000 processors in a chain (a patch a script wrote, or a hostile one): checked and
    /// ordered without recursion; the same chain closed into a loop is refused with the loop.
    /// The loop check and the order walk are iterative: a chain far longer than a graph may
    /// be (`HubGraph.maxNodes`) is checked without recursion; the longest a graph may be
    /// passes whole.
    @Test func aChainOfAHundredThousandNodesIsCheckedWithoutRecursion() throws {
        let count = 100_000
        let ids = ["keys"] + (0..<count).map { "p\($0)" }
        let routes = [Route("keys", "p0")] + (1..<count).map { Route("p\($0 - 1)", "p\($0)") }
        #expect(HubGraph.findCycle(ids: ids, routes: routes) == nil)
        let loop = try #require(HubGraph.findCycle(ids: ids, routes: routes + [Route("p\(count - 1)", "p0")]))
        #expect(loop.count == count + 1 && loop.first == "p0" && loop.last == "p0")
        let longest = HubGraph.maxNodes - 1
        let chain = (0..<longest).map { GraphNode(id: "p\($0)", body: .processor(.transpose)) }
        let graph = try HubGraph(nodes: [F.keys] + chain, routes: Array(routes.prefix(longest)))
        #expect(graph.topologicalOrder.count == longest + 1 && graph.topologicalOrder.last == "p\(longest - 1)")
    }

    @Test func refusesBadChannels() {
        #expect(throws: GraphError.badChannel(Route("keys", "piano", channels: [17]), 17)) {
            try HubGraph(nodes: [F.keys, F.piano], routes: [Route("keys", "piano", channels: [17])])
        }
    }

    @Test func routeChannelFilter() {
        let route = Route("a", "b", channels: [1, 2])
        #expect(route.passes(channel: 0) && route.passes(channel: 1) && !route.passes(channel: 2))
        #expect(route.passes(channel: nil))
    }

    @Test func registryLooksUpByNameAndDescriptor() {
        #expect(F.registry.type(named: "MIDIHUB Synth")?.descriptor == F.synth)
        #expect(F.registry.type(for: F.reverb)?.parameters.map(\.name) == ["mix", "bypass"], "an effect has the host's bypass too")
        #expect(F.registry.parameters(of: .processor(.transpose))?.map(\.name) == ["semitones"])
        #expect(F.registry.parameters(of: .output("default")) == nil)
    }
}
