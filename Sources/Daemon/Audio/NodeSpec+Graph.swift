import Control
import Hub
import RenderCore

extension NodeSpec {
    /// The graph node this spec asks for. `type` is a registered node name (`midihub synth`,
    /// `Reverb`), a processor (`transpose`, `channels`, `velocity`, `chord`, `arpeggiator`,
    /// …), `external-instrument` / `external-processor` / `source` with `port` (a selector as
    /// in docs/rules.md), or `output` with `port` naming the PCM device.
    /// - Throws: `ControlError` (`unknown-node-type`, `bad-params`, `unknown-parameter`, `invalid-value`).
    /// - Thread: control.
    public func graphNode(id: NodeID, registry: NodeRegistry) throws(ControlError) -> GraphNode {
        let body: NodeBody
        switch type.lowercased() {
        case "external-instrument", "external-processor", "source":
            let selector = try portSelector()
            if type.lowercased() == "source" {
                body = .source(selector)
            } else {
                body = .external(ExternalNode(port: selector, role: type.lowercased() == "external-processor" ? .processor : .instrument))
            }
        case "output":
            body = .output(port ?? "default")
        case "input", NodeDescriptor.audioInput.name:
            body = .input(port ?? "default")
        case "plugin":
            guard let plugin, !plugin.isEmpty else {
                throw ControlError(.badParams, "node type 'plugin' needs a plugin",
                                   fix: "add \"plugin\": \"http://lv2plug.in/plugins/eg-amp\" or a name 'midihub plugins' lists")
            }
            do {
                body = .unit(try registry.plugin(plugin))
            } catch {
                throw ControlError(.unknownNodeType, error.problem, fix: error.fix)
            }
        default:
            if let config = ProcessorConfig.byTypeName[type.lowercased()] {
                body = .processor(config)
            } else if let unit = registry.type(named: type) {
                body = .unit(unit.descriptor)
            } else {
                let known = registry.types.map(\.descriptor.name) + ProcessorConfig.typeNames
                    + ["external-instrument", "external-processor", "source", "output", "input", "plugin"]
                throw ControlError(.unknownNodeType, "no node type '\(type)'", fix: "use one of \(known.joined(separator: ", "))")
            }
        }
        var values: [String: Float] = [:]
        let known = registry.parameters(of: body)
        for (name, value) in parameters ?? [:] {
            if let known {
                guard let info = known.first(where: { $0.name == name }) else {
                    throw HubDaemon.unknownParameter(name, of: id, known: known)
                }
                guard info.range.contains(Float(value)) else { throw HubDaemon.outOfRange(name, info) }
            }
            values[name] = Float(value)
        }
        return GraphNode(id: id, body: body, parameters: values)
    }

    private func portSelector() throws(ControlError) -> PortSelector {
        guard let port, !port.isEmpty else {
            throw ControlError(.badParams, "node type '\(type)' needs a port", fix: "add \"port\": \"FLUID Synth*\" or another selector")
        }
        do {
            return try PortSelector(parsing: port)
        } catch {
            throw ControlError(.badParams, "port selector '\(port)': \(error.reason)", fix: error.fix)
        }
    }
}
