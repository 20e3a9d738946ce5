import Control

/// A text picture of the graph for `midihub graph`: each chain from a node nobody feeds,
/// one node per line, indented under the node that feeds it.
///
///     keys  source "*"
///     └─▶ synth  instrument midihub synth
///         └─▶ out  output default
///
/// A node fed from several places is drawn in full once, then as `↑ name`. Past 32 levels
/// the indentation stops growing and each line starts with its depth (`[33] name …`).
///
/// - Thread: any.
public enum GraphPicture {
    public static func render(nodes: [NodeSummary], connections: [ConnectionSummary]) -> String {
        var children: [String: [String]] = [:]
        var fed: Set<String> = []
        for connection in connections {
            guard let from = connection.sourceEndpoint.nodeID, let to = connection.destinationEndpoint.nodeID else { continue }
            children[from, default: []].append(to)
            fed.insert(to)
        }
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var lines: [String] = []
        var drawn: Set<String> = []
        // Depth first with an explicit stack (a chain of 20,000 nodes needs no call stack);
        // each entry: the node, its depth, the line's prefix and connector, its children's prefix.
        var stack: [(id: String, depth: Int, prefix: String, connector: String, childPrefix: String)] = []
        for node in nodes.reversed() where !fed.contains(node.id) { stack.append((node.id, 0, "", "", "")) }
        while let entry = stack.popLast() {
            let deep = entry.depth > maxIndent ? "[\(entry.depth)] " : ""
            guard drawn.insert(entry.id).inserted else {
                lines.append(entry.prefix + entry.connector + deep + "↑ " + entry.id)
                continue
            }
            lines.append(entry.prefix + entry.connector + deep + (byID[entry.id].map(label) ?? entry.id))
            let below = children[entry.id] ?? []
            // Past `maxIndent` levels the indentation stops growing and each line names its depth.
            let prefix = entry.depth < maxIndent ? entry.prefix + entry.childPrefix : entry.prefix
            for (index, child) in below.enumerated().reversed() {
                let last = index == below.count - 1
                stack.append((child, entry.depth + 1, prefix, last ? "└─▶ " : "├─▶ ", last ? "    " : "│   "))
            }
        }
        if lines.isEmpty { return "(no nodes)" }
        return lines.joined(separator: "\n")
    }

    /// Levels of indentation drawn; deeper nodes are drawn at this one with their depth.
    static let maxIndent = 32

    private static func label(_ node: NodeSummary) -> String {
        let detail = node.port.map { " \($0)" } ?? (node.kind == node.name ? "" : " \(node.name)")
        return "\(node.id)  \(node.kind)\(detail)"
    }
}
