import Yams

typealias YAMLNode = Yams.Node

/// Turns a composed YAML tree into a ``Patch``, reporting the first problem at its YAML position.
/// - Thread: any (a plain value; the control side reads patches with it).
struct PatchReader {
    let file: String
    let registry: NodeRegistry

    func patch(_ root: YAMLNode) throws(PatchError) -> Patch {
        let top = try mapping(root, "the patch")
        var nodeMarks: [NodeID: YAMLNode] = [:]
        var nodes: [GraphNode] = []
        var routes: [(Route, YAMLNode)] = []
        var rules: [ConnectionRule] = []
        var tempo = Patch.defaultTempo
        var network = NetworkSettings.none
        var jackTransport: JackTransportMode?
        var mappingsNode: YAMLNode?, scenesNode: YAMLNode?, triggersNode: YAMLNode?, widgetsNode: YAMLNode?, padsNode: YAMLNode?
        for (key, value) in top {
            switch try string(key, "a top-level key") {
            case "version":
                guard value.scalar?.string == "1" else {
                    throw error(at: value, "unsupported patch version \(value.scalar?.string ?? "?")", fix: "write `version: 1`")
                }
            case "name", "description":
                _ = try string(value, "a text")
            case "tempo":
                tempo = try number(value, "tempo")
                guard Patch.tempoRange.contains(tempo) else {
                    throw error(at: value, "tempo \(value.scalar?.string ?? "") is outside \(Int(Patch.tempoRange.lowerBound))…\(Int(Patch.tempoRange.upperBound)) BPM",
                                fix: "write a tempo in quarter notes per minute, like `tempo: 120`")
                }
            case "nodes":
                let definitions = try mapping(value, "nodes")
                guard definitions.count <= HubGraph.maxNodes else {
                    let excess = GraphError.tooManyNodes(definitions.count)
                    throw error(at: value, excess.reason, fix: excess.fix)
                }
                for (idNode, definition) in definitions {
                    let id = try string(idNode, "a node name")
                    guard nodeMarks.updateValue(idNode, forKey: id) == nil else {
                        throw error(at: idNode, "node '\(id)' is defined twice", fix: "give each node its own name")
                    }
                    let node = try node(id: id, definition)
                    if node.leadsClock, let leader = nodes.first(where: \.leadsClock) {
                        throw error(at: idNode, "nodes '\(leader.id)' and '\(id)' both have `clock: follow`",
                                    fix: "the transport follows one clock: keep `clock: follow` on one node")
                    }
                    nodes.append(node)
                }
            case "routes":
                for item in try sequence(value, "routes") { routes.append((try route(item), item)) }
            case "rules":
                for item in try sequence(value, "rules") { rules.append(try rule(item)) }
            case "mappings":
                mappingsNode = value
            case "scenes":
                scenesNode = value
            case "triggers":
                triggersNode = value
            case "widgets":
                widgetsNode = value
            case "pads":
                padsNode = value
            case "network":
                network = try self.network(value).with(osc: network.osc)
            case "osc":
                network.osc = try osc(value)
            case "transport":
                let text = try string(value, "transport")
                guard let mode = JackTransportMode(rawValue: text) else {
                    throw error(at: value, "transport '\(text)' is not a way to go with JACK's transport",
                                fix: "write `transport: follow` (JACK's transport moves the hub's song) or `transport: lead` "
                                    + "(the hub's moves JACK's), or leave it out")
                }
                jackTransport = mode
            case let name:
                throw error(at: key, "unknown top-level key '\(name)'",
                            fix: "use \(Patch.knownKeys.joined(separator: ", "))")
            }
        }
        for (route, item) in routes { try checkOutput(of: route, at: item, nodes: nodes) }
        let scenes = try scenesNode.map { node throws(PatchError) in try self.scenes(node, nodes: nodes) } ?? []
        let triggers = try triggersNode.map { node throws(PatchError) in try self.triggers(node, scenes: scenes.map(\.name), nodes: nodes) } ?? []
        let mappings = try (mappingsNode.map { node throws(PatchError) in
            try self.mappings(node, nodes: nodes, triggers: Trigger.system + triggers)
        } ?? []) + (padsNode.map { node throws(PatchError) in
            try self.pads(node, nodes: nodes, triggers: Trigger.system + triggers)
        } ?? [])
        let widgets = try widgetsNode.map { node throws(PatchError) in
            try self.widgets(node, nodes: nodes, triggers: Trigger.system + triggers, scenes: scenes.map(\.name))
        } ?? []
        do {
            return Patch(graph: try HubGraph(nodes: nodes, routes: routes.map(\.0)), rules: rules, tempo: tempo,
                         mappings: mappings, scenes: scenes, triggers: triggers, widgets: widgets, network: network,
                         jackTransport: jackTransport)
        } catch {
            throw self.error(at: position(of: error, nodes: nodeMarks, routes: routes), error.reason, fix: error.fix)
        }
    }

    /// The YAML node to blame for a graph error.
    private func position(of error: GraphError, nodes: [NodeID: YAMLNode], routes: [(Route, YAMLNode)]) -> YAMLNode? {
        func routeNode(_ route: Route) -> YAMLNode? { routes.last { $0.0 == route }?.1 }
        switch error {
        case .duplicateNode(let id), .unknownNode(let id, nil): return nodes[id]
        case .unknownNode(_, let route?), .duplicateRoute(let route), .unknownRoute(let route),
             .producesNothing(let route, _), .signalMismatch(let route, _, _, _), .badChannel(let route, _):
            return routeNode(route)
        case .cycle(let path):
            return routes.last { $0.0.from == path[path.count - 2] && $0.0.to == path[path.count - 1] }?.1
        case .tooManyNodes:
            return nil
        }
    }

    /// A route's `output` must be a send output of its `from` node's type.
    private func checkOutput(of route: Route, at item: YAMLNode, nodes: [GraphNode]) throws(PatchError) {
        guard let output = route.output, let from = nodes.first(where: { $0.id == route.from }) else { return }
        var outputs: [String] = []
        if case .unit(let descriptor) = from.body { outputs = registry.type(for: descriptor)?.sendOutputs ?? [] }
        guard !outputs.contains(output) else { return }
        throw error(at: item, "'\(route.from)' has no output '\(output)'",
                    fix: outputs.isEmpty ? "drop `output:` (it has only its main output)"
                                         : "use one of \(outputs.joined(separator: ", ")), or drop `output:`")
    }

    private func route(_ item: YAMLNode) throws(PatchError) -> Route {
        if let text = item.scalar?.string {
            let parts = text.split(separator: "->", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw error(at: item, "route '\(text)' is not `FROM -> TO`", fix: "write a route like `keys -> piano`")
            }
            return Route(parts[0], parts[1])
        }
        let fields = try mapping(item, "a route")
        try expectKeys(fields, ["from", "to", "channels", "output"])
        guard let from = fields["from"], let to = fields["to"] else {
            throw error(at: item, "a route needs `from` and `to`", fix: "write `{from: keys, to: piano}` or `keys -> piano`")
        }
        var channels: Set<Int>?
        if let list = fields["channels"] {
            channels = []
            for channel in try sequence(list, "channels") { channels?.insert(try integer(channel, in: 1...16, "a channel")) }
        }
        return Route(try string(from, "a node name"), try string(to, "a node name"), channels: channels,
                     output: try fields["output"].map { node throws(PatchError) in try string(node, "an output name") })
    }

    private func rule(_ item: YAMLNode) throws(PatchError) -> ConnectionRule {
        let text = try string(item, "a rule")
        do {
            return try ConnectionRule(parsing: text)
        } catch {
            let quoted = item.scalar?.style == .doubleQuoted || item.scalar?.style == .singleQuoted ? 1 : 0
            let (line, column) = position(item)
            throw PatchError(file: file, line: line, column: column + quoted + error.column - 1,
                             reason: error.reason, fix: error.fix)
        }
    }
}

// MARK: - Typed access with positions

/// - Thread: any (a plain value).
extension PatchReader {
    func error(at node: YAMLNode?, _ reason: String, fix: String) -> PatchError {
        let (line, column) = position(node)
        return PatchError(file: file, line: line, column: column, reason: reason, fix: fix)
    }

    /// The 1-based line and column where `node` starts (1:1 when unknown).
    func position(_ node: YAMLNode?) -> (line: Int, column: Int) {
        node?.mark.map { ($0.line, $0.column) } ?? (1, 1)
    }

    func error(_ yaml: YamlError) -> PatchError {
        switch yaml {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
             .composer(_, let problem, let mark, _):
            PatchError(file: file, line: mark.line, column: mark.column, reason: "YAML: \(problem)",
                       fix: "check indentation, colons and quotes near here")
        case .reader(let problem, let offset, let value, let text):
            readerError(problem, character: value, at: offset.map { Self.position(ofByte: $0, in: text) } ?? (1, 1))
        default:
            PatchError(file: file, line: 1, column: 1, reason: "YAML: \(yaml)", fix: "check that the file is YAML text")
        }
    }

    /// A character the YAML reader refuses (a control character, invalid UTF-8).
    private func readerError(_ problem: String, character: Int32, at place: (line: Int, column: Int)) -> PatchError {
        let hex = String(UInt32(bitPattern: character), radix: 16, uppercase: true)
        let code = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        return PatchError(file: file, line: place.line, column: place.column,
                          reason: "YAML: \(problem) (character U+\(code))",
                          fix: "remove that character; a patch is UTF-8 text")
    }

    /// The 1-based line and column (in bytes) of byte `offset` of `text`.
    static func position(ofByte offset: Int, in text: String) -> (line: Int, column: Int) {
        let before = text.utf8.prefix(max(0, offset))
        let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { before.index(after: $0) } ?? before.startIndex
        return (before.count { $0 == UInt8(ascii: "\n") } + 1, before[lineStart...].count + 1)
    }

    func mapping(_ node: YAMLNode, _ what: String) throws(PatchError) -> YAMLNode.Mapping {
        guard let mapping = node.mapping else {
            throw error(at: node, "\(what) must be a mapping of `key: value` lines", fix: "indent the entries under it as `key: value`")
        }
        return mapping
    }

    func sequence(_ node: YAMLNode, _ what: String) throws(PatchError) -> [YAMLNode] {
        guard let sequence = node.sequence else {
            throw error(at: node, "\(what) must be a list", fix: "write each entry on its own line starting with `- `")
        }
        return Array(sequence)
    }

    func string(_ node: YAMLNode, _ what: String) throws(PatchError) -> String {
        guard let text = node.scalar?.string, !text.isEmpty else {
            throw error(at: node, "expected \(what) here", fix: "write \(what) as plain text")
        }
        return text
    }

    func number(_ node: YAMLNode, _ what: String) throws(PatchError) -> Double {
        guard let text = node.scalar?.string, let value = Double(text), value.isFinite else {
            throw error(at: node, "expected a number for \(what), found '\(node.scalar?.string ?? "a structure")'",
                        fix: "write a number like 12 or 0.5")
        }
        return value
    }

    func flag(_ node: YAMLNode, _ what: String) throws(PatchError) -> Bool {
        guard let value = node.bool else { throw error(at: node, "\(what) must be true or false", fix: "write `\(what): true`") }
        return value
    }

    func integer(_ node: YAMLNode, in range: ClosedRange<Int>, _ what: String) throws(PatchError) -> Int {
        let value = try number(node, what)
        // `Int(exactly:)`: a whole number too large for Int is out of range, not a trap.
        guard let whole = Int(exactly: value), range.contains(whole) else {
            throw error(at: node, "\(what) \(node.scalar?.string ?? "") is outside \(range.lowerBound)…\(range.upperBound)",
                        fix: "write a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return whole
    }

    func expectKeys(_ mapping: YAMLNode.Mapping, _ allowed: [String]) throws(PatchError) {
        for key in mapping.keys {
            let name = key.scalar?.string ?? ""
            guard allowed.contains(name) else {
                throw error(at: key, "unknown key '\(name)'", fix: "use \(allowed.joined(separator: ", "))")
            }
        }
    }
}
