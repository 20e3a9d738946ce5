import MIDICore
import Control
import Hub
import RenderCore

/// Graph edits, parameters, patches and rules at runtime: `HubCore` decides, the daemon
/// carries out its effects (on the state's owner, for the control thread).
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Applies a graph edit now to the graph as it is (`HubInput.editGraph`): the note-offs for
    /// what it cuts off are sent, the new render program swapped in, the processors follow,
    /// the state is saved.
    /// - Throws: `ControlError` when the edit does not fit the graph or a processor parameter
    ///   is unknown (nothing changed).
    /// - Thread: owner.
    func applyGraphEdit(_ edit: GraphEdit) throws(ControlError) {
        try command(.editGraph(edit, at: HostTime.now()))
    }

    /// Sets a parameter of a processor or a built-in node, or the hub's tempo (node
    /// `transport`, when the graph has no node of that name); the value is saved with the state.
    /// A built-in node's value takes effect at the frame of `time` (the monotonic clock; by default now).
    /// - Thread: owner.
    func setParameter(node id: NodeID, _ name: String, to value: Float, at time: HostTime? = nil) throws(ControlError)
        -> (ParameterInfo, Float) {
        let info = try parameterInfo(node: id, name)
        try command(.setParameter(node: id, name, to: value, at: HostTime.now(), frameTime: time))
        return (info, value)
    }

    /// The input parameter `name` of node `id`: a processor's, a built-in node's, or the
    /// transport's tempo. - Thread: owner.
    func parameterInfo(node id: NodeID, _ name: String) throws(ControlError) -> ParameterInfo {
        do {
            return try core.snapshot.parameterInfo(node: id, name)
        } catch {
            throw ControlError(error)
        }
    }

    /// Replaces graph, rules and the control surface with a validated patch (the caller validated it).
    /// - Thread: owner.
    func install(_ patch: Patch) throws(ControlError) {
        try command(.install(patch, at: HostTime.now()))
    }

    /// Replaces the connection rules and reconciles at once. - Thread: owner.
    func setRules(_ rules: [ConnectionRule]) {
        feed(.setRules(rules))
    }

    /// - Thread: any.
    static func unknownNode(_ id: String) -> ControlError {
        ControlError(HubRefusal.unknownNode(id))
    }

    /// - Thread: any.
    static func unknownParameter(_ name: String, of id: String, known: [ParameterInfo]) -> ControlError {
        ControlError(HubRefusal.unknownParameter(name, of: id, known: known))
    }

    /// - Thread: any.
    static func outOfRange(_ name: String, _ info: ParameterInfo) -> ControlError {
        ControlError(HubRefusal.outOfRange(name, info))
    }
}
