import Control
import MIDICore
import Hub
import RenderCore
import SetupViews

/// The daemon's state as the control side reads it: the core's snapshot (a value), the ports,
/// the running program's unit nodes and how each receiver keeps up, as the owner left them
/// after its last change. The owner publishes a new one after each change it makes
/// (`HubDaemon.publishView`, one atomic swap); every list a request asks for is built here,
/// on the control side, without entering the owner. Values moved by controllers reach it
/// within a turn of the owner (at most about 20 ms).
///
/// - Thread: any (an immutable value once published).
struct HubView: @unchecked Sendable {
    let hub: HubSnapshot
    let ports: PortCatalog
    /// The running program's unit nodes; `nil` while no audio plays.
    let rendered: RenderedNodes?
    /// How each external node's receiver keeps up, when it does not take everything.
    let receivers: [NodeID: ReceiverStatus]
    /// The format audio renders in; `nil` while no audio plays.
    let format: RenderFormat?
    /// What the audio rack has installed, which the next program is compiled against; `nil`
    /// while no audio plays.
    let rack: RackLayout?

    /// The graph the view shows.
    var graph: HubGraph { hub.graph }

    /// Every node with its parameters' values now (`nodes.list`).
    func nodes() -> [NodeSummary] {
        var nodes = GraphSummaries.nodes(graph) { node in
            if let values = hub.processorParameters(node.id) {
                return values.infos.map { GraphSummaries.summary($0, value: values[Int($0.id)]) }
            }
            if let parameters = rendered?.parameters(of: node) {
                return parameters.map { GraphSummaries.summary($0.info, value: $0.value) }
            }
            return GraphSummaries.defaultParameters(node)
        }
        for index in nodes.indices { nodes[index].receiver = receivers[nodes[index].id] }
        return nodes
    }

    /// Node `id` as `nodes.list` shows it.
    /// - Throws: `ControlError` (`unknown-node`).
    func node(_ id: NodeID) throws(ControlError) -> NodeSummary {
        guard let node = nodes().first(where: { $0.id == id }) else { throw HubDaemon.unknownNode(id) }
        return node
    }

    /// Every port (`ports.list`).
    func portSummaries() -> [PortSummary] {
        ports.descriptors.map(ports.summary)
    }

    /// The connections between ports, then the graph's routes (`connections.list`).
    func connections() -> [ConnectionSummary] {
        ports.connections.sorted().map(ports.connectionSummary) + GraphSummaries.routes(graph)
    }

    /// The connection rules (`rules.list`).
    func rules() -> [RuleSummary] {
        GraphSummaries.rules(hub.rules)
    }

    /// The graph, routes and rules, as `patch.load` answers.
    func graphSummary() -> GraphSummary {
        GraphSummary(nodes: nodes(), connections: GraphSummaries.routes(graph), rules: rules())
    }

    /// The mappings with their targets' values now (`mappings.list`).
    func mappings() -> [MappingSummary] {
        hub.mappings.map { hub.summary(of: $0) }
    }

    /// The scenes (`scenes.list`).
    func scenes() -> [SceneSummary] {
        MappingSummaries.scenes(hub.scenes, current: hub.currentScene)
    }

    /// The triggers with their states at `now` (`triggers.list`).
    func triggers(at now: HostTime) -> [TriggerSummary] {
        hub.allTriggers.map { MappingSummaries.summary($0, state: hub.state(of: $0, at: now)) }
    }

    /// The widgets with their values at `now` (`widgets.list`): from the graph, an output's
    /// only while audio plays.
    func widgets(at now: HostTime) -> [WidgetSummary] {
        hub.widgets.map { summary(of: $0, at: now) }
    }

    /// `widget` as `widgets.list` shows it at `now`.
    func summary(of widget: Widget, at now: HostTime) -> WidgetSummary {
        if widget.showsOutput {
            let output = graph.node(widget.node).flatMap { node in
                NodeTypes.registry.outputs(of: node.body).first { $0.name == widget.parameter }
            }
            return MappingSummaries.summary(widget, output: output, value: rendered?.outputValue(of: widget.node, widget.parameter))
        }
        let trigger = widget.kind == .button ? hub.allTriggers.first { $0.name == widget.parameter } : nil
        return MappingSummaries.summary(widget, info: widget.kind == .button ? nil : try? hub.parameterInfo(node: widget.node, widget.parameter),
                                        value: hub.currentValue(of: widget.parameter, of: widget.node),
                                        state: trigger.map { hub.state(of: $0, at: now) }, scenes: hub.scenes.map(\.name),
                                        currentScene: hub.currentScene)
    }
}

extension HubSnapshot {
    /// `mapping` as `mappings.list` and the `mapping-learned` event show it, with its
    /// target's value now.
    /// - Thread: any (a value: the owner's snapshot or a published view's).
    func summary(of mapping: Mapping) -> MappingSummary {
        MappingSummaries.summary(mapping) { id, name in currentValue(of: name, of: id) }
    }
}
