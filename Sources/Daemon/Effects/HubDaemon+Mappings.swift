import MIDICore
import ALSA
import Control
import Hub
import SetupViews

/// Controller mappings and MIDI learn (docs/mappings.md): the core reads controls from live
/// MIDI and moves parameters; the daemon sets and lists mappings, arms learning and sends
/// controllers their feedback.
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Where a mapping shows its values: every writable ALSA port (but midihub's) that its
    /// `from` node selects. midihub:out is connected to them (`linkExternalNodes`): kernel
    /// ports take events only from connected senders.
    func feedbackPorts(of mapping: Mapping) -> [PortDescriptor] {
        guard mapping.feedback, let from = mapping.from, case .source(let selector)? = core.snapshot.graph.node(from)?.body else { return [] }
        return ports.descriptors.filter { port in
            port.direction.canReceive && port.address.client != client.clientID && !JackPortTable.isJack(port.address)
                && selector.matches(port)
        }
    }

    /// A controller just connected for feedback (it came back, or the daemon started) is
    /// shown its values: the mappings with feedback from the source nodes that select it.
    func showValues(toConnected port: PortDescriptor) {
        let sources = core.snapshot.graph.nodes.compactMap { node -> NodeID? in
            if case .source(let selector) = node.body, selector.matches(port) { node.id } else { nil }
        }
        if !sources.isEmpty { feed(.showValues(from: Set(sources))) }
    }

    /// Replaces the mappings (`mappings.set`), checked against the graph of `graphRevision`:
    /// they start, the controllers they show values on are connected, the state is saved.
    /// - Throws: `ControlError` when the graph was rebuilt since they were checked (`HubRefusal.stale`).
    /// - Thread: owner.
    func replaceMappings(_ list: [Mapping], checkedAgainst graphRevision: Int) throws(ControlError) {
        try command(.setMappings(list, graphRevision: graphRevision))
    }

    /// Binds the next control moved to `name` of node `id` within `seconds` (replacing a
    /// learning still armed, which ends as cancelled).
    /// - Throws: `ControlError` for an unknown node or parameter.
    func learn(node id: NodeID, _ name: String, seconds: Double) throws(ControlError) {
        try command(.learn(node: id, parameter: name, seconds: seconds, at: HostTime.now()))
    }

    /// Ends learning, if armed, publishing `learn-ended` (cancelled).
    func cancelLearning() {
        feed(.cancelLearn)
    }
}
