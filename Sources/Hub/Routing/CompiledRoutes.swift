

/// The graph's routes by node index, built once per graph change, so that routing an event
/// follows precomputed hops: no lookups by node name, no filtering of the route list, no
/// channel sets.
///
/// - Thread: owner (the MIDI input thread); a plain value inside `MIDIRouter`.
struct CompiledRoutes {
    /// What a route's target does with MIDI.
    enum TargetKind {
        /// A MIDI processor: its output goes on along the target's hops.
        case processor
        /// A unit or external node: MIDI leaves the graph there (`RouteSink`).
        case sink
        /// Takes no MIDI (a source or the audio output).
        case ignores
    }

    /// One route leaving a node: where it goes and which channels pass.
    struct Hop {
        let target: Int
        let kind: TargetKind
        /// Bit `n` set: 0-based channel `n` passes. All bits set when the route has no filter.
        let channelMask: UInt16

        /// Whether a message on `channel` (0-based; `nil` for system messages) passes.
        func passes(channel: UInt8?) -> Bool {
            guard let channel else { return true }
            return channelMask & (1 << UInt16(channel & 0x0F)) != 0
        }
    }

    /// The graph's nodes, in its order; indices below refer to this array.
    let nodes: [GraphNode]
    /// Each node as a `RouteSink` gets it, by node index.
    let targets: [RouteTarget]
    /// The hops leaving each node, by node index, in the graph's route order.
    let hops: [[Hop]]
    /// The indices of the source nodes, in graph order.
    let sources: [Int]
    /// The indices of the external processors: MIDI they send back enters the graph there.
    let processorReturns: [Int]
    /// Node indices in an order where every route goes forward.
    let topologicalOrder: [Int]
    let indexByID: [NodeID: Int]

    init(_ graph: HubGraph) {
        nodes = graph.nodes
        targets = graph.nodes.enumerated().map { RouteTarget($1, index: $0) }
        let indexByID = Dictionary(uniqueKeysWithValues: graph.nodes.enumerated().map { ($1.id, $0) })
        var hops = [[Hop]](repeating: [], count: graph.nodes.count)
        for route in graph.routes {
            guard let from = indexByID[route.from], let to = indexByID[route.to] else { continue }
            hops[from].append(Hop(target: to, kind: Self.kind(graph.nodes[to].body), channelMask: Self.mask(route.channels)))
        }
        self.hops = hops
        self.indexByID = indexByID
        sources = graph.nodes.indices.filter { if case .source = graph.nodes[$0].body { true } else { false } }
        processorReturns = graph.nodes.indices.filter {
            if case .external(let node) = graph.nodes[$0].body { node.role == .processor } else { false }
        }
        topologicalOrder = graph.topologicalOrder.compactMap { indexByID[$0] }
    }

    /// The nodes where MIDI from `port` enters the graph, as node indices: the external
    /// processors it is the return of, else the source nodes whose selector matches it. (A
    /// processor's return never also enters at a source, which could send it round again.)
    func sources(matching port: PortDescriptor) -> [Int] {
        let returns = processorReturns.filter { if case .external(let node) = nodes[$0].body { node.sendsBack(from: port) } else { false } }
        guard returns.isEmpty else { return returns }
        return sources.filter { if case .source(let selector) = nodes[$0].body { selector.matches(port) } else { false } }
    }

    /// The indices of the nodes where MIDI leaves the graph (units and external nodes).
    var sinks: [Int] {
        nodes.indices.filter { Self.kind(nodes[$0].body) == .sink }
    }

    private static func kind(_ body: NodeBody) -> TargetKind {
        if body.isMIDIProcessor { return .processor }
        switch body {
        case .processor: return .processor
        case .unit, .external: return .sink
        case .source, .output, .input: return .ignores
        }
    }

    private static func mask(_ channels: Set<Int>?) -> UInt16 {
        guard let channels else { return .max }
        return channels.reduce(0) { mask, channel in (1...16).contains(channel) ? mask | 1 << UInt16(channel - 1) : mask }
    }
}
