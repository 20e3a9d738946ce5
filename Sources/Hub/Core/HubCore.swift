import MIDICore
import RenderCore

/// The daemon's state as one value, with no I/O, no threads and no clock (DESIGN.md's
/// `HubCore`): the ports and their rules (`PortsCore`), the graph with its processors and what
/// sounds where (`MIDIRouter`), the tempo, the control surface (mappings, learn, scenes,
/// triggers, widgets), the transport (the song, the playlist, the clock it follows, the take).
/// Every input comes in through one entry, `handle(_:into:effects:)` (`HubInput`: live MIDI,
/// port announcements, control commands, transport commands, the turn's tick, with the time
/// or the transport's clock the shell read for it); effects come out (`HubEffect`), which the
/// shell carries out. MIDI the core sends goes straight into the caller's `RouteSink`. What an
/// input refuses (`HubRefusal`) changes nothing. Its state is read-only outside the module.
///
/// - Thread: owner (the state's owner, the daemon's MIDI input thread); a plain value.
public struct HubCore {
    /// The rules, runtime edits, hand edits waiting to be confirmed and when the rules are due.
    var ports: PortsCore
    /// The ports as last listed (`HubInput.portsListed`), and the connections between them.
    var portList: [PortDescriptor] = []
    var connections: Set<Connection> = []
    /// The listed ports and those that send without being listed, by address.
    @usableFromInline var portsByAddress: [PortAddress: PortDescriptor] = [:]
    /// Counts port listings (`directRoutesBasis`).
    var portListings = 0
    /// The source nodes each sending port feeds, resolved once per port list and graph.
    var senders = SenderCache()
    /// The graph, its processors, the hub's tempo and the notes sounding at each node.
    @usableFromInline var router: MIDIRouter
    /// Controller mappings and what they know of their controls and targets.
    var mappings = MappingEngine()
    /// MIDI learn, while armed.
    var learner: MappingLearner?
    /// What the mappings set for the message being handled (reused: mapping allocates nothing).
    var mappedChanges: [MappingEngine.Change] = []
    /// When feedback was last sent to controllers (monotonic), to pace it.
    var lastFeedback = HostTime.distantPast
    /// Whether the batch being handled changed something the state keeps (saved once per tick).
    var stateChanged = false
    /// The scenes (parameter snapshots) and the one switched to last.
    var scenes: [Scene]
    var currentScene: String?
    /// The patch's own triggers, and the last value each mapped trigger got (a trigger fires
    /// when it rises into the top half).
    var triggers: [Trigger]
    var triggerLevels: [String: Float] = [:]
    /// Each trigger's light (1 lit, 0 dark) as last worked out from its state.
    var triggerLights: [String: Float] = [:]
    /// The triggers the turn's MIDI moved through mappings (a press fires), fired at the
    /// turn's tick with the transport's clock (`takeMovedTriggers`).
    var triggerMoves: [(name: String, pressed: Bool, time: HostTime)] = []
    /// Whether the next port listing settles the rules (they came due: `HubEffect.listPorts`).
    var settlesOnListing = false
    /// When the trigger lights were last compared with the triggers' states (monotonic).
    var lastTriggerLights = HostTime.distantPast
    /// The taps of tap tempo so far.
    var tapTempo = TapTempo()
    /// What a remote shows.
    var widgets: [Widget]
    /// The RTP-MIDI sessions the daemon keeps (`HubEffect.network` hands them to the shell).
    var network: NetworkSettings
    /// How the transport goes with JACK's (`transport: follow` or `lead`); nil: on its own.
    public internal(set) var jackTransport: JackTransportMode?
    /// The transport: the song, the playlist, the clock it follows, the take.
    @usableFromInline var transport = HubTransport()
    /// The node types built-in nodes are checked against (their parameters).
    let registry: NodeRegistry
    /// The pseudo-port the transport's song plays from (`midihub:sequence`).
    let sequencePort: PortDescriptor
    /// Where each mapping target lands, resolved for one graph and one mapping list
    /// (`HubCore+Mappings`).
    var mappedTargets = MappedTargets()
    /// What the owner reads every turn, as of the last input (`refreshTurnReading`).
    public internal(set) var turnReading = TurnReading(nextGeneratedTime: nil, graphRevision: 0, isRecording: false)

    /// The pseudo-node that carries the hub's transport parameters.
    public static let transportID = Patch.transportNode
    /// The transport's one parameter: the tempo in quarter notes per minute.
    public static let tempoParameter = Patch.tempoParameter

    /// Starts from `state` (a patch, the saved state, the default), its mappings started from
    /// the parameters' values; the song plays from `sequencePort`.
    /// - Throws: `ParameterError` when a processor node names an unknown parameter.
    /// - Thread: owner.
    public init(state: HubState, registry: NodeRegistry, sequencePort: PortDescriptor = HubCore.defaultSequencePort)
        throws(ParameterError) {
        ports = PortsCore(reconciler: Reconciler(rules: state.rules, runtimeEdits: state.runtimeEdits))
        router = try MIDIRouter(graph: state.graph, plugins: registry.plugins)
        router.clock = TempoClock(beatsPerMinute: state.tempo)
        scenes = state.scenes
        triggers = state.triggers
        widgets = state.widgets
        network = state.network
        jackTransport = state.jackTransport
        self.registry = registry
        self.sequencePort = sequencePort
        startMappings(state.mappings)
        refreshTurnReading()
    }

    /// `midihub:sequence` of a client 128 (the tests'; the daemon names its own).
    public static let defaultSequencePort = PortDescriptor(address: PortAddress(client: 128, port: -1), clientName: "midihub",
                                                           portName: "sequence", portClass: .app, direction: .output)

    /// What the state file keeps.
    /// - Thread: owner.
    var state: HubState {
        HubState(graph: router.graph, rules: ports.reconciler.rules, runtimeEdits: ports.reconciler.runtimeEdits,
                 tempo: router.clock.beatsPerMinute, mappings: mappings.mappings, scenes: scenes, triggers: triggers,
                 widgets: widgets, network: network, jackTransport: jackTransport)
    }

    /// Whether `id` names the transport (no node of the graph has that name).
    /// - Thread: owner.
    func isTransport(_ id: NodeID) -> Bool {
        id == Self.transportID && router.graph.node(id) == nil
    }

    /// The monotonic time of the transport's last clock reading (a turn ago at most).
    var lastKnownTime: HostTime { transport.clock.monotonic(transport.clock.now) }

    /// The port at `address` in the last listing.
    func port(at address: PortAddress) -> PortDescriptor? {
        portsByAddress[address]
    }

    /// Replaces the connection rules; they apply at once.
    mutating func setRules(_ rules: [ConnectionRule]) -> [HubEffect] {
        ports.reconciler.rules = rules
        return [.log("rules set (\(rules.count))")] + reconciled() + [.save(state)]
    }

    /// The connections to break and make so the ports follow the rules and runtime edits, then
    /// the links to the external nodes' ports.
    func reconciled() -> [HubEffect] {
        ports.plan(ports: portList, connections: connections).map(HubEffect.ports) + [.linkExternalNodes]
    }

    /// Replaces the mappings (`mappings.set`, a learned one): they start from the parameters'
    /// values, the controllers they show values on are connected, and the state is saved.
    mutating func setMappings(_ list: [Mapping]) -> [HubEffect] {
        startMappings(list)
        return [.linkExternalNodes, .save(state)]
    }

    /// Starts the mappings `list` from the parameters' current values, and shows the
    /// controllers with feedback their values.
    mutating func startMappings(_ list: [Mapping]) {
        mappings = MappingEngine(list)
        refreshTriggerLights(at: lastKnownTime)
        mappings.showValues()
    }

    /// Every parameter's value now, where each lives (what the mappings read).
    /// - Thread: owner.
    var values: HubValues {
        HubValues(graph: router.graph, registry: registry, tempo: router.clock.beatsPerMinute,
                  sceneProgram: scenes.first { $0.name == currentScene }?.program.map(Float.init), triggerLights: triggerLights)
    }

    /// A parameter's value now: a scene's program, a trigger's light, else as the graph keeps
    /// it (set in the patch or at runtime) or its default, or the tempo.
    /// - Thread: owner.
    func currentValue(of parameter: String, of id: NodeID) -> Float? {
        values.value(of: parameter, of: id)
    }
}
