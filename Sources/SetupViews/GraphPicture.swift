import Control

/// A text picture of the graph for `midihub graph`: each chain from a node nobody feeds,
/// one node per line, indented under the node that feeds it.
///
///     keys  source "*"
///     └─▶ synth  instrument midihub synth
///         └─▶ out  output default
///
/// A node fed from several places is drawn in full once, then as `↑ name`.
///
/// - Thread: any.
public enum GraphPicture {
    public static func render(nodes: [NodeSummary], connections: [ConnectionSummary]) -> String {
        let routes = connections.compactMap { connection -> (String, String)? in
            guard let from = connection.sourceEndpoint.nodeID, let to = connection.destinationEndpoint.nodeID else { return nil }
            return (from, to)
        }
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let fed = Set(routes.map(\.1))
        var lines: [String] = []
        var drawn: Set<String> = []
        func draw(_ id: String, prefix: String, connector: String, childPrefix: String) {
            let label = byID[id].map(label) ?? id
            guard drawn.insert(id).inserted else {
                lines.append(prefix + connector + "↑ " + id)
                return
            }
            lines.append(prefix + connector + label)
            let children = routes.filter { $0.0 == id }.map(\.1)
            for (index, child) in children.enumerated() {
                let last = index == children.count - 1
                draw(child, prefix: prefix + childPrefix, connector: last ? "└─▶ " : "├─▶ ",
                     childPrefix: last ? "    " : "│   ")
            }
        }
        for node in nodes where !fed.contains(node.id) {
            draw(node.id, prefix: "", connector: "", childPrefix: "")
        }
        if lines.isEmpty { return "(no nodes)" }
        return lines.joined(separator: "\n")
    }

    private static func label(_ node: NodeSummary) -> String {
        let detail = node.port.map { " \($0)" } ?? (node.kind == node.name ? "" : " \(node.name)")
        return "\(node.id)  \(node.kind)\(detail)"
    }
}
