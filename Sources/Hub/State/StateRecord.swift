import RenderCore

/// The JSON shape of ``HubState``: plain strings and numbers, selectors and rules in their text form.
/// - Thread: any (a plain value).
struct StateRecord: Codable {
    struct NodeRecord: Codable {
        var id: NodeID
        /// source, processor, unit, external or output.
        var type: String
        var port: String?
        var processor: ProcessorConfig?
        var descriptor: DescriptorRecord?
        var role: ExternalNode.Role?
        /// An external node's MIDI clock out and its offset (ms).
        var clock: Bool?
        var clockOffset: Double?
        /// Whether the transport follows an external node's clock.
        var followsClock: Bool?
        /// An external instrument's `audio:` (where its sound comes back into the graph).
        var audio: String?
        var device: String?
        var parameters: [String: Float]
    }

    struct DescriptorRecord: Codable {
        var kind: String
        var subtype: String
        var manufacturer: String
        var name: String
        var version: UInt32
        /// An LV2 plugin node's plugin URI (its parameters are read again from the plugin at start).
        var plugin: String?
        /// An LV2 plugin node's own state (lilv's Turtle), when it keeps one.
        var pluginState: String?
        /// An LV2 plugin node's `isolate:` when the patch gave one.
        var isolated: Bool?
    }

    var format: Int
    var nodes: [NodeRecord]
    var routes: [Route]
    var rules: [String]
    var runtimeEdits: [RuntimeEdit]
    /// Absent in files written before the tempo was saved: the default tempo.
    var tempo: Double?
    /// Absent in files written before mappings were saved: none.
    var mappings: [Mapping]?
    /// Absent in files written before scenes were saved: none.
    var scenes: [Scene]?
    /// Absent in files written before triggers were saved: none.
    var triggers: [Trigger]?
    /// Absent in files written before widgets were saved: none.
    var widgets: [Widget]?
    /// Absent in files written before network sessions were saved, or without any: none.
    var network: NetworkSettings?
    /// Absent without the patch's `transport:`.
    var jackTransport: JackTransportMode?

    init(_ state: HubState) {
        format = HubState.formatVersion
        nodes = state.graph.nodes.map(Self.record)
        routes = state.graph.routes
        rules = state.rules.map(\.description)
        runtimeEdits = state.runtimeEdits
        tempo = state.tempo
        mappings = state.mappings.isEmpty ? nil : state.mappings
        scenes = state.scenes.isEmpty ? nil : state.scenes
        triggers = state.triggers.isEmpty ? nil : state.triggers
        widgets = state.widgets.isEmpty ? nil : state.widgets
        network = state.network == .none ? nil : state.network
        jackTransport = state.jackTransport
    }

    private static func record(_ node: GraphNode) -> NodeRecord {
        var record = NodeRecord(id: node.id, type: "", parameters: node.parameters)
        switch node.body {
        case .source(let selector):
            record.type = "source"
            record.port = selector.description
        case .processor(let config):
            record.type = "processor"
            record.processor = config
        case .unit(let descriptor):
            record.type = "unit"
            record.descriptor = DescriptorRecord(kind: descriptor.kind.rawValue, subtype: descriptor.subtype.description,
                                                 manufacturer: descriptor.manufacturer.description,
                                                 name: descriptor.name, version: descriptor.version,
                                                 plugin: descriptor.plugin?.uri, pluginState: descriptor.pluginState,
                                                 isolated: descriptor.isolated)
        case .external(let external):
            record.type = "external"
            record.port = external.port.description
            record.role = external.role
            record.audio = external.audio
            switch external.clock {
            case .send:
                record.clock = true
                record.clockOffset = external.clockOffset
            case .follow:
                record.followsClock = true
            case nil:
                break
            }
        case .output(let device):
            record.type = "output"
            record.device = device
        case .input(let device):
            record.type = "input"
            record.device = device
        }
        return record
    }

    /// Rebuilds and validates the state; the error text names the bad part.
    func state() throws(RecordError) -> HubState {
        var graphNodes: [GraphNode] = []
        for record in nodes { graphNodes.append(GraphNode(id: record.id, body: try body(record), parameters: record.parameters)) }
        var connectionRules: [ConnectionRule] = []
        for text in rules {
            do {
                connectionRules.append(try ConnectionRule(parsing: text))
            } catch {
                throw RecordError(description: "rule '\(text)': \(error.reason)")
            }
        }
        let tempo = self.tempo ?? Patch.defaultTempo
        guard Patch.tempoRange.contains(tempo) else {
            throw RecordError(description: "tempo \(tempo) is outside \(Patch.tempoRange.lowerBound)…\(Patch.tempoRange.upperBound)")
        }
        do {
            return HubState(graph: try HubGraph(nodes: graphNodes, routes: routes), rules: connectionRules,
                            runtimeEdits: runtimeEdits, tempo: tempo, mappings: mappings ?? [], scenes: scenes ?? [],
                            triggers: triggers ?? [], widgets: widgets ?? [], network: network ?? .none,
                            jackTransport: jackTransport)
        } catch {
            throw RecordError(description: "graph: \(error.reason)")
        }
    }

    private func body(_ record: NodeRecord) throws(RecordError) -> NodeBody {
        func selector() throws(RecordError) -> PortSelector {
            do {
                return try PortSelector(parsing: record.port ?? "")
            } catch {
                throw RecordError(description: "node '\(record.id)': \(error.reason)")
            }
        }
        func missing(_ field: String) -> RecordError {
            RecordError(description: "node '\(record.id)' lacks '\(field)'")
        }
        switch record.type {
        case "source": return .source(try selector())
        case "processor":
            guard let config = record.processor else { throw missing("processor") }
            return .processor(config)
        case "unit":
            guard let d = record.descriptor, let kind = NodeKind(rawValue: d.kind) else { throw missing("descriptor") }
            guard let subtype = FourCharCode(validating: d.subtype), let manufacturer = FourCharCode(validating: d.manufacturer) else {
                throw RecordError(description: "node '\(record.id)' has a descriptor whose subtype or manufacturer is not "
                                  + "four ASCII characters ('\(d.subtype)', '\(d.manufacturer)')")
            }
            // A plugin's parameters are not kept: `HubGraph.resolvingPlugins` reads them again.
            let plugin = d.plugin.map { PluginIdentity(uri: $0, parameters: [], outputs: []) }
            return .unit(NodeDescriptor(kind: kind, subtype: subtype, manufacturer: manufacturer, name: d.name, version: d.version,
                                        plugin: plugin, pluginState: d.pluginState, isolated: d.isolated))
        case "external":
            let clock: ExternalNode.ClockLink? = record.followsClock == true ? .follow : record.clock == true ? .send : nil
            return .external(ExternalNode(port: try selector(), role: record.role ?? .instrument, clock: clock,
                                          clockOffset: record.clockOffset ?? 0, audio: record.audio))
        case "output", "input":
            guard let device = record.device else { throw missing("device") }
            return record.type == "input" ? .input(device) : .output(device)
        default:
            throw RecordError(description: "node '\(record.id)' has unknown type '\(record.type)'")
        }
    }

    struct RecordError: Error, CustomStringConvertible {
        var description: String
    }
}
