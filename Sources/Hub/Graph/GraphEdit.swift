/// One structural edit of the graph, prepared and checked on the control side against the
/// snapshot it read, and applied by the owner to the graph as it is then
/// (`HubInput.editGraph`): applying it again is the rebase, so an edit prepared against a
/// graph that moved meanwhile (a mapped knob recorded a value, another request added a node)
/// is applied to what is there now, or refused, never applied stale.
///
/// - Thread: any (a plain value).
public enum GraphEdit: Hashable, Sendable {
    /// Adds a node (validated and built from its spec by the control side).
    case add(GraphNode)
    /// Removes a node and every route to or from it.
    case remove(NodeID)
    /// Puts a new definition in place of node `id`, keeping its routes.
    case replace(NodeID, with: NodeBody, parameters: [String: Float])
    /// Adds a route.
    case connect(Route)
    /// Removes the route from one node to another (any channel filter).
    case disconnect(NodeID, NodeID)

    /// The change this edit makes to `graph`.
    /// - Throws: `GraphError` when it does not fit `graph` (an unknown node, a cycle, a
    ///   route an end cannot take).
    /// - Thread: any.
    public func change(of graph: HubGraph) throws(GraphError) -> GraphChange {
        switch self {
        case .add(let node): try graph.adding(node)
        case .remove(let id): try graph.removing(id)
        case .replace(let id, let body, let parameters): try graph.replacing(id, with: body, parameters: parameters)
        case .connect(let route): try graph.connecting(route)
        case .disconnect(let from, let to): try graph.disconnecting(from, to)
        }
    }
}
