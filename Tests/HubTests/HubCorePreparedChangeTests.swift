import MIDICore
import RenderCore
import HubTestSupport
import Testing
import Hub

/// Changes the control side prepares against a snapshot of the core and the owner applies
/// (`HubInput.editGraph`, `.setMappings(_:graphRevision:)`), driven through `handle` only: each
/// kind applied, and each prepared against a snapshot the owner has moved past meanwhile —
/// rebased onto the state as it is, or refused, never applied stale.
@Suite struct HubCorePreparedChangeTests {
    static func core() throws -> HubCore {
        try HubCore(state: HubState(graph: GraphFixtures.chain(), rules: [], tempo: 120), registry: GraphFixtures.registry)
    }

    static let delay = GraphNode(id: "verb2", body: .unit(GraphFixtures.reverb), parameters: ["mix": 0.1])

    /// Applies `input`; the effects.
    @discardableResult
    static func handle(_ input: HubInput, _ core: inout HubCore) throws -> [HubEffect] {
        var sink = RecordingSink()
        return try core.handle(input, into: &sink)
    }

    @Test func eachGraphEditAppliesToTheCurrentGraph() throws {
        var core = try Self.core()
        try Self.handle(.editGraph(.add(Self.delay), at: 1), &core)
        #expect(core.snapshot.graph.node("verb2") == Self.delay)
        try Self.handle(.editGraph(.connect(Route("piano", "verb2")), at: 2), &core)
        #expect(core.snapshot.graph.routes.contains(Route("piano", "verb2")))
        try Self.handle(.editGraph(.disconnect("piano", "verb2"), at: 3), &core)
        #expect(!core.snapshot.graph.routes.contains(Route("piano", "verb2")))
        try Self.handle(.editGraph(.replace("verb2", with: .unit(GraphFixtures.reverb), parameters: ["mix": 0.9]), at: 4), &core)
        #expect(core.snapshot.graph.node("verb2")?.parameters["mix"] == 0.9)
        let effects = try Self.handle(.editGraph(.remove("verb2"), at: 5), &core)
        #expect(core.snapshot.graph.node("verb2") == nil)
        #expect(effects.contains(.nodeRemoved("verb2")))
        #expect(effects.last == .save(core.snapshot.state))
    }

    /// An edit checked against a snapshot, applied after a value was recorded and another node
    /// added meanwhile: both stay (the edit is rebased, not the snapshot's graph put back).
    @Test func anEditPreparedAgainstAnOlderSnapshotKeepsWhatChangedSince() throws {
        var core = try Self.core()
        let snapshot = core.snapshot
        let edit = GraphEdit.add(Self.delay)
        _ = try edit.change(of: snapshot.graph)  // the control side's check
        try Self.handle(.setParameter(node: "piano", "cutoff", to: 440, at: 1, frameTime: nil), &core)
        try Self.handle(.editGraph(.add(GraphNode(id: "verb3", body: .unit(GraphFixtures.reverb))), at: 2), &core)
        try Self.handle(.editGraph(edit, at: 3), &core)
        #expect(core.snapshot.graph.node("verb2") == Self.delay)
        #expect(core.snapshot.graph.node("verb3") != nil)
        #expect(core.snapshot.graph.node("piano")?.parameters["cutoff"] == 440)
        #expect(snapshot.graph.node("verb3") == nil)  // the snapshot stayed as it was
    }

    /// An edit that fitted the snapshot but no longer fits the graph is refused, and nothing changes.
    @Test func anEditThatNoLongerFitsIsRefused() throws {
        var core = try Self.core()
        try Self.handle(.editGraph(.add(Self.delay), at: 1), &core)
        let snapshot = core.snapshot
        let edit = GraphEdit.connect(Route("piano", "verb2"))
        _ = try edit.change(of: snapshot.graph)
        try Self.handle(.editGraph(.remove("verb2"), at: 2), &core)
        let before = core.snapshot.state
        #expect(throws: HubRefusal.self) { try Self.handle(.editGraph(edit, at: 3), &core) }
        #expect(core.snapshot.state == before)
    }

    /// Mappings checked against the snapshot's graph start when the graph is that one; when it
    /// was rebuilt since (a node removed that they might name), they are refused as stale and
    /// the mappings stay; checked again against the new graph, they apply.
    @Test func mappingsCheckedAgainstARebuiltGraphAreRefusedAsStale() throws {
        var core = try Self.core()
        let list = [Mapping(source: .controller(74), targets: [MappingTarget(node: "piano", parameter: "cutoff", low: 20, high: 2000)])]
        let checkedAt = core.snapshot.graphRevision
        try Self.handle(.setMappings(list, graphRevision: checkedAt), &core)
        #expect(core.snapshot.mappings == list)

        let moved = core.snapshot.graphRevision
        try Self.handle(.editGraph(.add(Self.delay), at: 1), &core)
        let other = [Mapping(source: .controller(1), targets: [MappingTarget(node: "verb2", parameter: "mix", low: 0, high: 1)])]
        #expect(throws: HubRefusal.stale("the mappings")) { try Self.handle(.setMappings(other, graphRevision: moved), &core) }
        #expect(core.snapshot.mappings == list)
        try Self.handle(.setMappings(other, graphRevision: core.snapshot.graphRevision), &core)
        #expect(core.snapshot.mappings == other)
    }
}
