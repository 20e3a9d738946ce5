/// The audio half of a graph as the render side plays it: which render nodes make or
/// process sound, in an order where every audio input comes first, what each takes audio
/// from, and what is heard at the output.
///
/// - Thread: any (a plain value).
public struct AudioRoutes: Equatable, Sendable {
    /// One output of a render node: its main output, or a send output by name. A string
    /// literal is a node's main output.
    public struct Source: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var node: NodeID
        public var output: String?

        public init(_ node: NodeID, output: String? = nil) {
            self.node = node
            self.output = output
        }

        public init(stringLiteral node: String) {
            self.init(node)
        }

        public var description: String { node + (output.map { "." + $0 } ?? "") }
    }

    /// The graph's render nodes (instruments, effects, …), inputs first.
    public var nodes: [NodeID]
    /// For each node, the outputs whose audio it takes (summed), in route order.
    public var inputs: [NodeID: [Source]]
    /// The outputs summed into the main sound card: what is routed to the output nodes of
    /// the first output's device.
    public var toOutput: [Source]
    /// The other devices the graph plays to (a second card, a loopback), each with what is
    /// routed to its output nodes, in the order the graph first names them.
    public var otherOutputs: [DeviceOutput]
    /// Nodes that make sound no output hears (routed nowhere or only into nodes that are
    /// not heard), when the graph names an output.
    public var unheard: [NodeID]
    /// Bypassed effects: they still take and process their inputs (their tails go on), but
    /// whatever took their output takes their inputs instead.
    public var bypassed: Set<NodeID>

    /// A sound card beside the main one and what it plays.
    public struct DeviceOutput: Equatable, Sendable {
        /// The PCM device name, as the output nodes name it.
        public var device: String
        /// The output nodes that name it.
        public var outputs: [NodeID]
        /// The outputs summed into it.
        public var sources: [Source]

        public init(device: String, outputs: [NodeID], sources: [Source]) {
            self.device = device
            self.outputs = outputs
            self.sources = sources
        }
    }
}

/// - Thread: any (a plain value).
extension HubGraph {
    /// The audio routes of the graph. With an `output` node, what is routed to an output is
    /// heard — on the first output's device, or on another device an output names; with none
    /// (a patch of MIDI routes only), every render node whose audio goes
    /// to no other node is heard, as if routed to the default output.
    /// - Thread: any.
    public var audioRoutes: AudioRoutes {
        let units = topologicalOrder.filter { node($0)?.body.rendersAudio == true }
        let unitSet = Set(units)
        let outputNodes = nodes.compactMap { node -> (id: NodeID, device: String)? in
            if case .output(let device) = node.body { (node.id, device) } else { nil }
        }
        var devices: [String] = []
        for output in outputNodes where !devices.contains(output.device) { devices.append(output.device) }
        let deviceOf = Dictionary(outputNodes.map { ($0.id, $0.device) }, uniquingKeysWith: { first, _ in first })
        func sources(to device: String) -> [AudioRoutes.Source] {
            routes.filter { unitSet.contains($0.from) && deviceOf[$0.to] == device }.map { AudioRoutes.Source($0.from, output: $0.output) }
        }
        var inputs: [NodeID: [AudioRoutes.Source]] = [:]
        for route in routes where unitSet.contains(route.from) && unitSet.contains(route.to) {
            guard node(route.from)?.body.output == .audio else { continue }
            inputs[route.to, default: []].append(AudioRoutes.Source(route.from, output: route.output))
        }
        let feedsUnit = Set(inputs.values.joined().map(\.node))
        var toOutput = outputNodes.isEmpty
            ? units.filter { !feedsUnit.contains($0) && node($0)?.body.output == .audio }.map { AudioRoutes.Source($0) }
            : sources(to: devices[0])
        var otherOutputs = devices.dropFirst().map { device in
            AudioRoutes.DeviceOutput(device: device, outputs: outputNodes.filter { $0.device == device }.map(\.id),
                                     sources: sources(to: device))
        }
        let bypassed = Set(units.filter { node($0)?.isBypassed == true })
        if !bypassed.isEmpty {
            func around(_ source: AudioRoutes.Source) -> [AudioRoutes.Source] {
                guard source.output == nil, bypassed.contains(source.node) else { return [source] }
                return (inputs[source.node] ?? []).flatMap(around)
            }
            let resolved = inputs.mapValues { $0.flatMap(around) }
            for (id, sources) in resolved where !bypassed.contains(id) { inputs[id] = sources }
            toOutput = toOutput.flatMap(around)
            for index in otherOutputs.indices { otherOutputs[index].sources = otherOutputs[index].sources.flatMap(around) }
        }
        let heard = heardNodes(from: toOutput + otherOutputs.flatMap(\.sources), inputs: inputs)
        let unheard = units.filter { !heard.contains($0) && !bypassed.contains($0) && node($0)?.body.output == .audio }
        return AudioRoutes(nodes: units, inputs: inputs, toOutput: toOutput, otherOutputs: otherOutputs, unheard: unheard,
                           bypassed: bypassed)
    }

    /// `ends` and every node whose audio reaches one of them.
    private func heardNodes(from ends: [AudioRoutes.Source], inputs: [NodeID: [AudioRoutes.Source]]) -> Set<NodeID> {
        var heard: Set<NodeID> = []
        var stack = ends.map(\.node)
        while let id = stack.popLast() {
            guard heard.insert(id).inserted else { continue }
            stack += (inputs[id] ?? []).map(\.node)
        }
        return heard
    }
}

extension HubGraph {
    /// Parameter `parameter` of node `id` as the graph keeps it (set in the patch or at
    /// runtime), else its type's default; the transport's tempo is `tempo`.
    /// - Thread: any.
    public func value(of parameter: String, of id: NodeID, registry: NodeRegistry, tempo: Double) -> Float? {
        guard let node = node(id) else { return id == Patch.transportNode ? Float(tempo) : nil }
        if let value = node.parameters[parameter] { return value }
        return registry.parameters(of: node.body)?.first { $0.name == parameter }?.defaultValue
    }
}
