/// Edits: each returns a new validated graph and the change to apply, or throws and leaves
/// the caller's graph as it was.
extension HubGraph {
    /// Adds `node` and `routes` (which may connect it to existing nodes).
    /// - Thread: control.
    public func adding(_ node: GraphNode, routes newRoutes: [Route] = []) throws(GraphError) -> GraphChange {
        try change(nodes: nodes + [node], routes: routes + newRoutes)
    }

    /// Removes the node and every route to or from it.
    /// - Thread: control.
    public func removing(_ id: NodeID) throws(GraphError) -> GraphChange {
        guard node(id) != nil else { throw .unknownNode(id, route: nil) }
        return try change(nodes: nodes.filter { $0.id != id }, routes: routes.filter { $0.from != id && $0.to != id })
    }

    /// Puts a new definition in place of node `id`, keeping its routes (which must still fit).
    /// - Thread: control.
    public func replacing(_ id: NodeID, with body: NodeBody, parameters: [String: Float] = [:]) throws(GraphError) -> GraphChange {
        guard node(id) != nil else { throw .unknownNode(id, route: nil) }
        let replaced = nodes.map { $0.id == id ? GraphNode(id: id, body: body, parameters: parameters) : $0 }
        return try change(nodes: replaced, routes: routes)
    }

    /// Adds a route.
    /// - Thread: control.
    public func connecting(_ route: Route) throws(GraphError) -> GraphChange {
        try change(nodes: nodes, routes: routes + [route])
    }

    /// Removes a route (matched by its ends; any channel filter).
    /// - Thread: control.
    public func disconnecting(_ from: NodeID, _ to: NodeID) throws(GraphError) -> GraphChange {
        let kept = routes.filter { !($0.from == from && $0.to == to) }
        guard kept.count < routes.count else { throw .unknownRoute(Route(from, to)) }
        return try change(nodes: nodes, routes: kept)
    }

    /// The same graph with parameter `name` of node `id` set to `value` (no change when
    /// there is no such node): how a value set at runtime is kept with the graph, and saved.
    /// Not a `GraphChange`: the node keeps running.
    /// - Thread: any (a plain value; the owner sets a mapped value here).
    public mutating func setParameter(_ name: String, of id: NodeID, to value: Float) {
        guard let index = nodes.firstIndex(where: { $0.id == id }) else { return }
        setParameter(name, ofNodeAt: index, to: value)
    }

    /// The same for the node at `index` (no change when there is none).
    /// - Thread: any (a plain value; the owner sets a mapped value here).
    public mutating func setParameter(_ name: String, ofNodeAt index: Int, to value: Float) {
        guard nodes.indices.contains(index) else { return }
        nodes[index].parameters[name] = value  // in place: no copy of the other nodes
    }

    private func change(nodes: [GraphNode], routes: [Route]) throws(GraphError) -> GraphChange {
        GraphChange(from: self, to: try HubGraph(nodes: nodes, routes: routes))
    }
}
