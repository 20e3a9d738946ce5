/// Where MIDI leaves the graph, as a `RouteSink` gets it: the node's index in the graph (by
/// which a sink resolves its destinations, once per graph), its id, and whether it is a unit
/// (an instrument or effect of the audio rack) rather than an external node. Made once per
/// graph (`CompiledRoutes.targets`): a plain value whose copy retains at most the id, where
/// handing over the whole `GraphNode` copied it — every field retained and released — twice
/// per routed event (callgrind in the VM, session 29).
///
/// - Thread: any (a plain value).
public struct RouteTarget: Sendable {
    /// The node's index in the graph's node list.
    public let index: Int
    public let id: NodeID
    /// A unit node: MIDI goes to the audio rack; otherwise to an external node's port.
    public let isUnit: Bool

    /// The target of `node`, at `index` of its graph.
    public init(_ node: GraphNode, index: Int) {
        self.index = index
        id = node.id
        if case .unit = node.body { isUnit = true } else { isUnit = false }
    }
}
