import MIDICore
import Control
import Hub
import RenderCore

/// Graph edits, parameters, patches and rules at runtime: `HubCore` decides, the daemon
/// carries out its effects (on the state's owner, for the control thread).
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Works out `edit` against the published view here — the change, its routes, processors
    /// and render nodes — then has the owner apply it now to the graph as it is
    /// (`HubInput.editGraph`; the rebase when the graph moved meanwhile): the note-offs for
    /// what it cuts off are sent, the new render program swapped in, the processors follow,
    /// the state is saved.
    /// - Throws: `ControlError` when the edit does not fit the graph or a processor parameter
    ///   is unknown (nothing changed).
    /// - Thread: any but the owner (the control server's thread).
    func applyGraphEdit(_ edit: GraphEdit) throws {
        try withPreparedChange({ view in
            do throws(GraphError) {
                return try edit.change(of: view.graph)
            } catch {
                throw ControlError(HubRefusal(error))
            }
        }, apply: { [self] prepared in
            try command(.editGraph(edit, at: HostTime.now(), prepared: prepared))
        })
    }

    /// Works out `patch`'s graph change against the published view here (as `applyGraphEdit`),
    /// then has the owner install it and run `then` there, in the same turn.
    /// - Thread: any but the owner (the control server's thread, main, a worker).
    func install<T>(_ patch: Patch, then: @escaping () throws -> T) throws -> T {
        try withPreparedChange({ view in GraphChange(from: view.graph, to: patch.graph) }, apply: { [self] prepared in
            try command(.install(patch, at: HostTime.now(), prepared: prepared))
            return try then()
        })
    }

    /// How many times a graph change is prepared on the control side before the owner takes
    /// it as it is (and rebases it: plugins instantiated, the program compiled on its thread).
    static let preparationAttempts = 3

    /// Prepares the graph change `change` makes of the published view (`prepare`), then has
    /// the owner carry it out with `apply` — unless the owner's graph moved past that view
    /// meanwhile (another edit came first): then it is prepared again against the newer view,
    /// so that plugins start and programs compile here, not on the MIDI thread. The last of
    /// `preparationAttempts` is applied whatever happened (the owner rebases it).
    /// - Thread: any but the owner.
    private func withPreparedChange<T>(_ change: (HubView) throws -> GraphChange,
                                       apply: @escaping (PreparedGraphChange?) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            let view = self.view.value, last = attempt >= Self.preparationAttempts
            let (prepared, nodes, program) = prepare(try change(view), of: view)
            let outcome: T? = try perform { [self] () throws -> T? in
                guard last || core.snapshot.graphRevision == view.hub.graphRevision else { return nil }
                audio?.offer(nodes, program: program)
                defer { audio?.dropOffer() }
                return try apply(prepared)
            }
            if let outcome { return outcome }
        }
    }

    /// What `change`, made from `view`'s graph, costs besides itself: its routes and
    /// processors (`nil` when a processor refuses its parameters: the owner says so), the
    /// render nodes it starts, made for the format audio plays in, and the render program
    /// compiled against the rack the view shows (`nil` while no audio plays).
    private func prepare(_ change: GraphChange, of view: HubView) -> (PreparedGraphChange?, PreparedNodes, CompiledRack?) {
        let prepared = try? PreparedGraphChange(change, against: view.hub.graphRevision, plugins: registry.plugins)
        let nodes = PreparedNodes(for: change.started, catalog: catalog, format: view.format)
        guard let prepared, let rack = view.rack, let format = view.format, let catalog, !change.isEmpty else { return (prepared, nodes, nil) }
        let program = rack.compile(change.new, stopped: change.stopped, routes: prepared.audioRoutes, offered: nodes,
                                   catalog: catalog, format: format)
        return (prepared, nodes, program)
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
