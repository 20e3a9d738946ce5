import Hub
import RenderCore

/// Render nodes made and prepared on the control side for a graph change, so that the owner
/// allocates none of them: each unit node the change starts, for the format audio plays in
/// now. The owner offers them to the audio rack (`AudioRack.offer`) before it applies the
/// change; the install takes each one whose node it starts with the same body, and drops the
/// rest (a change rebased onto a graph that moved meanwhile may start other nodes, which it
/// then makes itself).
///
/// - Thread: control (made there; handed to the owner once: a plain value of new nodes no
///   other thread holds).
struct PreparedNodes: @unchecked Sendable {
    /// By node id: the node's body and the render node made for it.
    private(set) var nodes: [NodeID: (body: NodeBody, node: any Node)] = [:]

    /// Nothing prepared.
    init() {}

    /// Makes and prepares, with `catalog`, a render node for each unit node of `started`, for
    /// `format` (`nil`: no audio plays, nothing is made).
    init(for started: [GraphNode], catalog: NodeCatalog?, format: RenderFormat?) {
        guard let catalog, let format else { return }
        for graphNode in started {
            guard case .unit(let descriptor) = graphNode.body, !graphNode.body.isMIDIProcessor,
                  let node = catalog.makeNode(descriptor) else { continue }
            node.prepare(format: format)
            nodes[graphNode.id] = (graphNode.body, node)
        }
    }

    /// The node prepared for `id` when it was made for `body`.
    func node(_ id: NodeID, body: NodeBody?) -> (any Node)? {
        guard let prepared = nodes[id], prepared.body == body else { return nil }
        return prepared.node
    }
}
