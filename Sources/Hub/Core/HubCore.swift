import RenderCore

/// The daemon's state as one value, with no I/O and no threads (DESIGN.md's `HubCore`): the
/// ports and their rules (`PortsCore`), the graph with its processors and what sounds where
/// (`MIDIRouter`), the tempo, the control surface (mappings, scenes, triggers, widgets).
/// Commands go in — graph edits, parameter sets, a patch, rules — with the time they take
/// effect; effects come out (`HubEffect`), which the daemon carries out. MIDI the core sends
/// (the note-offs of a removed node) goes straight into the caller's `RouteSink`, as live
/// routing does. What a command refuses (`HubRefusal`) changes nothing.
///
/// - Thread: the state's owner (the daemon's MIDI input thread); a plain value.
public struct HubCore {
    /// The rules, runtime edits, hand edits waiting to be confirmed and when the rules are due.
    public var ports: PortsCore
    /// The graph, its processors, the hub's tempo and the notes sounding at each node.
    public var router: MIDIRouter
    /// Controller mappings and what they know of their controls and targets.
    public var mappings = MappingEngine()
    /// The scenes (parameter snapshots) and the one switched to last.
    public var scenes: [Scene]
    public var currentScene: String?
    /// The patch's own triggers, and the last value each mapped trigger got (a trigger fires
    /// when it rises into the top half).
    public var triggers: [Trigger]
    public var triggerLevels: [String: Float] = [:]
    /// The taps of tap tempo so far.
    public var tapTempo = TapTempo()
    /// What a remote shows.
    public var widgets: [Widget]
    /// The node types built-in nodes are checked against (their parameters).
    public let registry: NodeRegistry
    /// Where each mapping target lands, resolved for one graph and one mapping list
    /// (`HubCore+Mappings`).
    var mappedTargets = MappedTargets()

    /// The pseudo-node that carries the hub's transport parameters.
    public static let transportID = Patch.transportNode
    /// The transport's one parameter: the tempo in quarter notes per minute.
    public static let tempoParameter = Patch.tempoParameter

    /// Starts from `state` (a patch, the saved state, the default); its mappings start when the
    /// shell carries out `startMappings(state.mappings)`.
    /// - Throws: `ParameterError` when a processor node names an unknown parameter.
    /// - Thread: owner.
    public init(state: HubState, registry: NodeRegistry) throws(ParameterError) {
        ports = PortsCore(reconciler: Reconciler(rules: state.rules, runtimeEdits: state.runtimeEdits))
        router = try MIDIRouter(graph: state.graph)
        router.clock = TempoClock(beatsPerMinute: state.tempo)
        scenes = state.scenes
        triggers = state.triggers
        widgets = state.widgets
        self.registry = registry
    }

    /// What the state file keeps.
    /// - Thread: owner.
    public var state: HubState {
        HubState(graph: router.graph, rules: ports.reconciler.rules, runtimeEdits: ports.reconciler.runtimeEdits,
                 tempo: router.clock.beatsPerMinute, mappings: mappings.mappings, scenes: scenes, triggers: triggers,
                 widgets: widgets)
    }

    /// Whether `id` names the transport (no node of the graph has that name).
    /// - Thread: owner.
    public func isTransport(_ id: NodeID) -> Bool {
        id == Self.transportID && router.graph.node(id) == nil
    }

    /// Replaces the connection rules; they apply at once.
    /// - Thread: owner.
    public mutating func setRules(_ rules: [ConnectionRule]) -> [HubEffect] {
        ports.reconciler.rules = rules
        return [.log("rules set (\(rules.count))"), .reconcile, .save(state)]
    }

    /// Replaces the mappings (`mappings.set`, a learned one): they start, the controllers they
    /// show values on are connected, and the state is saved.
    /// - Thread: owner.
    public mutating func setMappings(_ list: [Mapping]) -> [HubEffect] {
        mappings = MappingEngine(list)
        return [.startMappings(list), .linkExternalNodes, .save(state)]
    }
}
