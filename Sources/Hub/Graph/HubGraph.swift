/// The hub's graph: MIDI sources → MIDI processors → instruments / music effects → effects → output.
/// An immutable, validated value: every way to build or edit one checks it first, so a
/// `HubGraph` in hand is always valid (unique names, known nodes, matching signals, no loops).
///
/// - Thread: any (a plain value); edits are made on the control side.
public struct HubGraph: Hashable, Sendable {
    /// In definition order. (Only a node's parameter values change in place: `setParameter`.)
    public internal(set) var nodes: [GraphNode]
    /// In definition order.
    public let routes: [Route]

    public static let empty = HubGraph(validated: [], routes: [])

    /// - Throws: ``GraphError`` naming the first problem.
    public init(nodes: [GraphNode], routes: [Route]) throws(GraphError) {
        try Self.validate(nodes: nodes, routes: routes)
        self.init(validated: nodes, routes: routes)
    }

    init(validated nodes: [GraphNode], routes: [Route]) {
        self.nodes = nodes
        self.routes = routes
    }

    public func node(_ id: NodeID) -> GraphNode? { nodes.first { $0.id == id } }

    public func routes(from id: NodeID) -> [Route] { routes.filter { $0.from == id } }

    public func routes(to id: NodeID) -> [Route] { routes.filter { $0.to == id } }

    /// The source nodes with a path to `id`.
    public func sources(reaching id: NodeID) -> Set<NodeID> {
        reachable(from: id, forward: false).filter { if case .source? = node($0)?.body { true } else { false } }
    }

    /// The nodes and routes that lie on some path from `source` to `target` (empty when none).
    public func paths(from source: NodeID, to target: NodeID) -> (nodes: Set<NodeID>, routes: [Route]) {
        let between = reachable(from: source, forward: true).intersection(reachable(from: target, forward: false))
        return (between, routes.filter { between.contains($0.from) && between.contains($0.to) })
    }

    /// `id` and every node reachable from it along routes (against them when not `forward`).
    private func reachable(from id: NodeID, forward: Bool) -> Set<NodeID> {
        var visited: Set<NodeID> = []
        var stack = [id]
        while let current = stack.popLast() {
            guard visited.insert(current).inserted else { continue }
            stack += forward ? routes(from: current).map(\.to) : routes(to: current).map(\.from)
        }
        return visited
    }

    /// Node ids in an order where every route goes forward (sources first). Linear in the
    /// nodes and routes (Kahn's algorithm over indices), since the router orders its
    /// processors by it when a program is installed on the MIDI thread.
    public var topologicalOrder: [NodeID] {
        let indexByID = Dictionary(nodes.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var successors = [[Int]](repeating: [], count: nodes.count)
        var indegree = [Int](repeating: 0, count: nodes.count)
        for route in routes {
            guard let from = indexByID[route.from], let to = indexByID[route.to] else { continue }
            successors[from].append(to)
            indegree[to] += 1
        }
        var order = nodes.indices.filter { indegree[$0] == 0 }
        order.reserveCapacity(nodes.count)
        var next = 0
        while next < order.count {
            for successor in successors[order[next]] {
                indegree[successor] -= 1
                if indegree[successor] == 0 { order.append(successor) }
            }
            next += 1
        }
        return order.map { nodes[$0].id }
    }

    /// The most nodes a graph holds: far past any real setup, and a bound on what a patch,
    /// a saved state or `nodes.add` can make the hub compile and keep.
    public static let maxNodes = 4096

    private static func validate(nodes: [GraphNode], routes: [Route]) throws(GraphError) {
        guard nodes.count <= maxNodes else { throw .tooManyNodes(nodes.count) }
        var byID: [NodeID: GraphNode] = [:]
        for node in nodes {
            guard byID.updateValue(node, forKey: node.id) == nil else { throw .duplicateNode(node.id) }
        }
        var seen: Set<Route> = []
        for route in routes {
            guard let from = byID[route.from] else { throw .unknownNode(route.from, route: route) }
            guard let to = byID[route.to] else { throw .unknownNode(route.to, route: route) }
            guard seen.insert(route).inserted else { throw .duplicateRoute(route) }
            guard let signal = from.body.output else { throw .producesNothing(route, kind: from.body.kindName) }
            guard to.body.inputs.contains(signal) else {
                throw .signalMismatch(route, sends: signal, toKind: to.body.kindName, accepts: to.body.inputs)
            }
            if let bad = route.channels?.first(where: { !(1...16).contains($0) }) { throw .badChannel(route, bad) }
        }
        if let cycle = findCycle(ids: nodes.map(\.id), routes: routes) { throw .cycle(cycle) }
    }

    /// A loop as a path that starts and ends at the same node, or `nil`.
    static func findCycle(ids: [NodeID], routes: [Route]) -> [NodeID]? {
        var next: [NodeID: [NodeID]] = [:]
        for route in routes { next[route.from, default: []].append(route.to) }
        enum Mark { case visiting, done }
        var marks: [NodeID: Mark] = [:]
        for root in ids where marks[root] == nil {
            // Depth first, the path an explicit stack of nodes and the successor each tries
            // next: a chain of 100,000 nodes needs no call stack.
            var path: [(id: NodeID, next: Int)] = [(root, 0)]
            marks[root] = .visiting
            while let top = path.last {
                let successors = next[top.id] ?? []
                guard top.next < successors.count else {
                    marks[top.id] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let successor = successors[top.next]
                switch marks[successor] {
                case .done?:
                    continue
                case .visiting?:
                    let start = path.firstIndex { $0.id == successor } ?? 0
                    return path[start...].map(\.id) + [successor]
                case nil:
                    marks[successor] = .visiting
                    path.append((successor, 0))
                }
            }
        }
        return nil
    }
}
