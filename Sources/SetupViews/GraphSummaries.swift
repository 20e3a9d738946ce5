import Control
import Hub
import RenderCore

/// The graph and rules as the control protocol shows them; the daemon and the standalone
/// CLI (`midihub nodes`, `graph`, `rules` without a daemon) use the same words.
///
/// - Thread: any.
public enum GraphSummaries {
    /// Every node; `parameters` gives a node's parameters with current values when known.
    public static func nodes(_ graph: HubGraph, parameters: (GraphNode) -> [ParameterSummary] = defaultParameters)
        -> [NodeSummary] {
        graph.nodes.map { summary($0, parameters: parameters($0)) }
    }

    /// Every node type a patch or `nodes.add` can name — the built-in instruments and effects,
    /// then the processors — each as a node whose `id` is the type's name, with its
    /// parameters at their defaults.
    public static func types() -> [NodeSummary] {
        let bodies = NodeTypes.registry.types.map { NodeBody.unit($0.descriptor) }
            + ProcessorConfig.typeNames.compactMap { ProcessorConfig.byTypeName[$0].map(NodeBody.processor) }
        return bodies.map { body in
            let node = GraphNode(id: describe(body).name, body: body)
            return summary(node, parameters: defaultParameters(node))
        }
    }

    private static func summary(_ node: GraphNode, parameters: [ParameterSummary]) -> NodeSummary {
        let (name, kind, subtype, manufacturer, version, port) = describe(node.body)
        var plugin: String?
        if case .unit(let descriptor) = node.body { plugin = descriptor.plugin?.uri }
        return NodeSummary(id: node.id, name: name, kind: kind, subtype: subtype, manufacturer: manufacturer,
                           version: version, port: port, plugin: plugin, parameters: parameters)
    }

    /// The routes of the graph as connections between `node:ID` endpoints.
    public static func routes(_ graph: HubGraph) -> [ConnectionSummary] {
        graph.routes.map { ConnectionSummary(from: .node($0.from), to: .node($0.to)) }
    }

    /// A node's parameters at the values its definition gives (defaults for the rest).
    public static func defaultParameters(_ node: GraphNode) -> [ParameterSummary] {
        let infos = NodeTypes.registry.parameters(of: node.body) ?? []
        return infos.map { summary($0, value: node.parameters[$0.name] ?? $0.defaultValue) }
    }

    public static func summary(_ info: ParameterInfo, value: Float) -> ParameterSummary {
        ParameterSummary(id: Int(info.id), name: info.name, min: decimal(info.range.lowerBound),
                         max: decimal(info.range.upperBound), default: decimal(info.defaultValue),
                         unit: info.unit.rawValue, value: decimal(value),
                         choices: info.choices.isEmpty ? nil : info.choices.map { .init(label: $0.label, value: decimal($0.value)) },
                         enumeration: info.enumerates ? true : nil)
    }

    /// The double a reader expects for `value`: its shortest decimal (0.3, not
    /// 0.30000001192092896, the float's exact value).
    static func decimal(_ value: Float) -> Double {
        Double("\(value)") ?? Double(value)
    }

    /// Rules for the wire: each side's selector without its class, and the class.
    public static func rules(_ rules: [ConnectionRule]) -> [RuleSummary] {
        rules.map { rule in
            RuleSummary(action: rule.action == .connect ? .connect : .disallow,
                        source: rule.source.description, destination: rule.destination.description)
        }
    }

    /// Rules from the wire; `source` and `destination` use the selector syntax of docs/rules.md.
    /// - Throws: `ControlError` (`invalid-rule`) naming the rule and the problem.
    public static func connectionRules(_ summaries: [RuleSummary]) throws(ControlError) -> [ConnectionRule] {
        var rules: [ConnectionRule] = []
        for (index, summary) in summaries.enumerated() {
            let text = summary.description
            do throws(RuleSyntaxError) {
                rules.append(try ConnectionRule(parsing: text))
            } catch {
                throw ControlError(.invalidRule, "rule \(index + 1) '\(text)': \(error.reason)", fix: error.fix)
            }
        }
        return rules
    }

    private static func describe(_ body: NodeBody)
        -> (name: String, kind: String, subtype: String, manufacturer: String, version: String, port: String?) {
        switch body {
        case .source(let selector):
            ("source", "source", "srce", "mhub", "1.0.0", selector.description)
        case .processor(let config):
            (config.typeName, NodeKind.midiProcessor.rawValue, String(config.typeName.prefix(4)), "mhub", "1.0.0", nil)
        case .unit(let descriptor):
            (descriptor.name, descriptor.kind.rawValue, descriptor.subtype.description, descriptor.manufacturer.description,
             "\(descriptor.version >> 16).\(descriptor.version >> 8 & 0xFF).\(descriptor.version & 0xFF)", nil)
        case .external(let external):
            ("external \(external.role.rawValue)", "external-\(external.role.rawValue)", "extn", "mhub", "1.0.0",
             external.port.description)
        case .output(let device):
            ("audio output", "output", "outp", "mhub", "1.0.0", device)
        case .input(let device):
            { unit in (unit.name, unit.kind, unit.subtype, unit.manufacturer, unit.version, device) }(describe(.unit(.audioInput)))
        }
    }
}
