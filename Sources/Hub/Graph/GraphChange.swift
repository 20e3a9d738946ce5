/// The result of an edit: the new graph and what the daemon must do to get there.
///
/// - Thread: any (a plain value); computed on the control side.
public struct GraphChange: Hashable, Sendable {
    public let old: HubGraph
    public let new: HubGraph
    /// Nodes to start (new, or replaced by a different definition), in the new graph's order.
    public let started: [GraphNode]
    /// Nodes to stop (removed, or replaced), in the old graph's order.
    public let stopped: [GraphNode]
    public let addedRoutes: [Route]
    public let removedRoutes: [Route]

    /// The difference between any two graphs (a replaced node is stopped and started again).
    public init(from old: HubGraph, to new: HubGraph) {
        self.old = old
        self.new = new
        started = new.nodes.filter { old.node($0.id) != $0 }
        stopped = old.nodes.filter { new.node($0.id) != $0 }
        let oldRoutes = Set(old.routes), newRoutes = Set(new.routes)
        addedRoutes = new.routes.filter { !oldRoutes.contains($0) }
        removedRoutes = old.routes.filter { !newRoutes.contains($0) }
    }

    public var isEmpty: Bool { started.isEmpty && stopped.isEmpty && addedRoutes.isEmpty && removedRoutes.isEmpty }

    /// What to send so no note sticks, forgetting the released notes in `sounding`:
    /// - a stopped external node gets all-notes-off and sustain-off on every channel;
    /// - a stopped built-in node gets note-offs for everything held at it (its release tail plays out);
    /// - a node that keeps running gets note-offs for the notes of an origin when any node or route on
    ///   the old paths from that origin to it was removed or replaced: the note-off could no longer
    ///   take the way (and the processor state) its note-on took. Added paths change nothing.
    ///
    /// - Thread: control (call before swapping in the new program).
    public func releases(_ sounding: inout SoundingNotes) -> [NodeRelease] {
        var result: [NodeRelease] = []
        for node in stopped {
            if case .external = node.body {
                _ = sounding.release(node: node.id)
                result.append(.allNotesOff(node.id))
            } else if let release = sounding.release(node: node.id) {
                result.append(release)
            }
        }
        let stoppedIDs = Set(stopped.map(\.id))
        let newRoutes = Set(new.routes)
        for node in new.nodes where !stoppedIDs.contains(node.id) {
            let broken = sounding.origins(at: node.id).map(\.source).filter { source in
                let before = old.paths(from: source, to: node.id)
                return before.nodes.contains { stoppedIDs.contains($0) } || before.routes.contains { !newRoutes.contains($0) }
            }
            guard !broken.isEmpty,
                  let release = sounding.release(node: node.id, origins: { broken.contains($0.source) }) else { continue }
            result.append(release)
        }
        return result
    }
}
