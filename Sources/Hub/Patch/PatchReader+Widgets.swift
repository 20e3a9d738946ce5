/// `widgets:` — what a remote shows (docs/mappings.md#widgets).
/// - Thread: any (a plain value).
extension PatchReader {
    /// Reads the widgets of a patch with these nodes, triggers and scenes.
    func widgets(_ value: YAMLNode, nodes: [GraphNode], triggers: [Trigger], scenes: [String]) throws(PatchError) -> [Widget] {
        var widgets: [Widget] = []
        for item in try sequence(value, "widgets") {
            let fields = try mapping(item, "a widget")
            try expectKeys(fields, Widget.Kind.allCases.map(\.rawValue) + ["title"])
            let kinds = Widget.Kind.allCases.filter { fields[$0.rawValue] != nil }
            guard kinds.count == 1, let kind = kinds.first, let targetNode = fields[kind.rawValue] else {
                throw error(at: item, "a widget names one kind and what it shows",
                            fix: "write one of " + Widget.Kind.allCases.map { "`\($0.rawValue): …`" }.joined(separator: ", "))
            }
            let widget: Widget
            if kind == .selector {
                guard try string(targetNode, "what a selector picks") == Patch.sceneNode else {
                    throw error(at: targetNode, "a selector picks a scene", fix: "write `selector: scene`")
                }
                guard !scenes.isEmpty else { throw error(at: targetNode, "the patch has no scenes to select", fix: "add scenes:") }
                widget = Widget(kind: kind, title: "scene", node: Patch.sceneNode, parameter: "")
            } else {
                let (node, parameter) = try parameterName(targetNode, nodes: nodes)
                let firesTrigger = node == Patch.triggerNode
                guard firesTrigger == (kind == .button) else {
                    throw error(at: targetNode, kind == .button ? "a button fires a trigger" : "a \(kind.rawValue) shows a parameter, not a trigger",
                                fix: kind == .button ? "write `button: trigger.NAME`" : "use `button: \(node).\(parameter)`")
                }
                let outputs = nodes.first { $0.id == node }.map { registry.outputs(of: $0.body) } ?? []
                let showsOutput = (kind == .meter || kind == .label) && outputs.contains { $0.name == parameter }
                if kind == .meter, !showsOutput {
                    throw error(at: targetNode, "a meter shows a node's output",
                                fix: outputs.isEmpty ? "name a node that publishes outputs (an instrument, an input, a compressor)"
                                                     : "use one of \(outputs.map(\.name).joined(separator: ", "))")
                }
                if !showsOutput { _ = try parameterInfo(node, parameter, nodes: nodes, triggers: triggers, at: targetNode) }
                widget = Widget(kind: kind, title: parameter, node: node, parameter: parameter, showsOutput: showsOutput)
            }
            var labelled = widget
            if let title = fields["title"] { labelled.title = try string(title, "a title") }
            widgets.append(labelled)
        }
        return widgets
    }
}
