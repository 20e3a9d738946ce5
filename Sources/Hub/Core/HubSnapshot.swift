import MIDICore
import RenderCore

/// What the shell may read of the hub's state: the core as it was when taken (a value whose
/// parts stay shared until the core next writes them), with no way to change it. The owner
/// reads the core's own (`HubCore.snapshot`) between inputs; the control side reads the one
/// the owner last published. Nothing outside the module reads the core's parts: everything
/// the shell learns comes from here or from the effects, but for the three values the owner
/// reads every turn (`TurnReading`). Its reads are inlinable: an optimized build reads the
/// field without copying the core.
///
/// - Thread: any (a plain value).
public struct HubSnapshot {
    @usableFromInline let core: HubCore

    @inlinable init(core: HubCore) {
        self.core = core
    }

    // MARK: The graph

    /// The graph: its nodes (with the values set at runtime) and routes.
    @inlinable public var graph: HubGraph { core.router.graph }
    /// Counts graph rebuilds: a change prepared against one revision is stale in another.
    @inlinable public var graphRevision: Int { core.router.revision }
    /// The hub's tempo (quarter notes per minute).
    public var tempo: Double { core.router.clock.beatsPerMinute }
    /// The values of processor node `id`'s parameters (`nil`: not a processor).
    public func processorParameters(_ id: NodeID) -> ParameterValues? { core.router.processorParameters(id) }
    /// When a processor (an arpeggiator) next generates an event, if any does.
    @inlinable public var nextGeneratedTime: HostTime? { core.router.nextGeneratedTime() }
    /// The input parameter `name` of node `id` (`HubCore.parameterInfo`).
    /// - Throws: `HubRefusal` for an unknown node or parameter.
    public func parameterInfo(node id: NodeID, _ name: String) throws(HubRefusal) -> ParameterInfo {
        try core.parameterInfo(node: id, name)
    }
    /// A parameter's value now: a scene's program, a trigger's light, the graph's value or
    /// default, or the tempo.
    public func currentValue(of parameter: String, of id: NodeID) -> Float? {
        core.currentValue(of: parameter, of: id)
    }
    /// The external nodes that follow the transport's clock: their index and offset.
    public var clockFollowers: [(index: Int, offset: HostDuration)] { core.clockFollowers }
    /// The node whose clock the transport follows, if any.
    public var clockLeader: GraphNode? { core.clockLeader }

    // MARK: Ports

    /// The connection rules and the runtime edits.
    public var rules: [ConnectionRule] { core.ports.reconciler.rules }
    /// Whether the port at `address` was in the last listing (or sends without being listed).
    @inlinable public func knowsPort(at address: PortAddress) -> Bool { core.portsByAddress[address] != nil }
    /// Whether the shell was asked to make `connection` and has not said it did.
    public func isMaking(_ connection: Connection) -> Bool { core.ports.isMaking(connection) }
    /// Whether the rules and runtime edits want `source` connected to `destination` (`nil`:
    /// they say nothing of it).
    public func wantsConnection(from source: PortDescriptor, to destination: PortDescriptor) -> Bool? {
        core.ports.reconciler.wantsConnection(from: source, to: destination)
    }

    // MARK: The control surface

    /// The controller mappings.
    public var mappings: [Mapping] { core.mappings.mappings }
    /// The scenes and the one switched to last.
    public var scenes: [Scene] { core.scenes }
    public var currentScene: String? { core.currentScene }
    /// The patch's triggers; with the hub's own before them (`allTriggers`).
    public var triggers: [Trigger] { core.triggers }
    public var allTriggers: [Trigger] { core.allTriggers }
    /// How `trigger` shows at `time` (monotonic).
    public func state(of trigger: Trigger, at time: HostTime) -> TriggerState { core.state(of: trigger, at: time) }
    /// What a remote shows.
    public var widgets: [Widget] { core.widgets }
    /// The widget `name` names (`HubCore.widget(named:)`).
    /// - Throws: `HubRefusal` (`unknownWidget`).
    public func widget(named name: String) throws(HubRefusal) -> Widget { try core.widget(named: name) }
    /// What `gesture` on `widget` does at `time`: the input a remote's gesture becomes.
    /// - Throws: `HubRefusal` when the widget refuses the gesture or its parameter is gone.
    public func action(of gesture: WidgetGesture, on widget: Widget, at time: HostTime) throws(HubRefusal) -> WidgetAction {
        try core.action(of: gesture, on: widget, at: time)
    }

    // MARK: The rest

    /// The transport: the song, the playlist, the clock it follows, the take.
    @inlinable public var transport: HubTransport { core.transport }
    /// The RTP-MIDI sessions the daemon keeps.
    public var network: NetworkSettings { core.network }
    /// What the state file keeps.
    public var state: HubState { core.state }
}

/// The few values the owner reads every turn of its loop (when to wake for a processor, the
/// graph's revision for its route cache, whether a take needs a stamp): a stored part of the
/// core, set after each input, so a read copies three fields. A snapshot — or any computed
/// property of the core read through the daemon's class — copies every part of the core
/// (retaining each): 2,000 instructions a read, which the emulated VM turns into tens of µs
/// per turn (callgrind in the VM, session 29).
/// - Thread: any (a plain value).
public struct TurnReading: Sendable {
    /// When a processor (an arpeggiator) next generates an event, if any does.
    public let nextGeneratedTime: HostTime?
    /// Counts graph rebuilds (`HubSnapshot.graphRevision`).
    public let graphRevision: Int
    /// Whether a take is being recorded (an input may end it: it needs a stamp).
    public let isRecording: Bool

    @inlinable init(nextGeneratedTime: HostTime?, graphRevision: Int, isRecording: Bool) {
        (self.nextGeneratedTime, self.graphRevision, self.isRecording) = (nextGeneratedTime, graphRevision, isRecording)
    }
}

/// - Thread: owner (the state's owner).
extension HubCore {
    /// The state as it is now, to read (the owner, between inputs) or to publish.
    @inlinable public var snapshot: HubSnapshot { HubSnapshot(core: self) }

    /// Reads `turnReading` again: after every input (`handle`) and at the start.
    mutating func refreshTurnReading() {
        turnReading = TurnReading(nextGeneratedTime: router.nextGeneratedTime(), graphRevision: router.revision,
                                  isRecording: transport.isRecording)
    }
}
