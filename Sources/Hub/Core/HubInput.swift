import MIDICore
import RenderCore

/// Everything that reaches the hub's state, through its one entry (`HubCore.handle`). Times
/// are `HostTime`s on the monotonic clock; inputs that move the transport carry the transport's clock as the
/// shell read it (`TransportClock`), and those that may end a take the local time that
/// names it (`stamp`, `2026-11-25-183012`): the core reads no clock.
///
/// - Thread: any (a plain value).
public enum HubInput {
    // MARK: The MIDI path

    /// A live message from the port at `address`, which arrived at `time`: the clock follower,
    /// a take, learning and the mappings read it; what they leave is routed through the graph.
    case midi(MIDIMessage, from: PortAddress, at: HostTime)
    /// The transport's message from `midihub:sequence` (`HubEffect.schedule`), at `time`.
    case sequenced(MIDIMessage, at: HostTime)
    /// A turn of the owner's loop at `clock`: what the turn's MIDI asked of the transport
    /// (the master clock's word, the triggers mappings moved: `stamp` names a take one ends)
    /// is done, the transport hands out what is due and follows its master, the processors
    /// generate, learning's outcome, the controllers' feedback, the trigger lights (once a
    /// second), the rules' settle time and a batch's save are looked at.
    case tick(TransportClock, stamp: String = "")

    // MARK: Ports

    /// The port list as read now: the listed ports, the ports that send without being
    /// listed (`aplaymidi`'s), the connections between them. `changed`: announcements came
    /// since the last listing — the ports that left release their notes
    /// (`HubEffect.ports(.portLeft)`), those that appeared are reported, the rules are due a
    /// moment later. The listing the core asked for when they came due (`HubEffect.listPorts`)
    /// settles them.
    case portsListed([PortDescriptor], directSenders: [PortDescriptor], connections: Set<Connection>, changed: Bool, at: HostTime)
    /// A subscription appeared (`connected`) or vanished at `time`.
    case connectionAnnounced(Connection, connected: Bool, at: HostTime)
    /// The shell made or broke `connection` (or the kernel refused: `succeeded` false).
    case connectionApplied(Connection, connected: Bool, succeeded: Bool)
    /// A connection made or broken through the control socket, kept as a runtime edit.
    case connectionEdited(source: PortDescriptor, destination: PortDescriptor, connected: Bool)
    /// The kernel lost MIDI input at `time` (maybe announcements with it).
    case inputLost(at: HostTime)
    /// Make and break connections so they follow the rules and runtime edits.
    case reconcile

    // MARK: Commands

    /// A graph edit at `time`, applied to the graph as it is now. The control side worked it
    /// out against its snapshot (`prepared`): when the graph is still that one, the prepared
    /// change is applied as it is; else the edit is checked and worked out again here (the
    /// rebase).
    case editGraph(GraphEdit, at: HostTime, prepared: PreparedGraphChange? = nil)
    /// A parameter of a processor, a built-in node or the transport's tempo, at `time`; a
    /// built-in node's value lands at the frame of `frameTime` (`nil`: the next block).
    case setParameter(node: NodeID, String, to: Float, at: HostTime, frameTime: HostTime?)
    /// The hub's tempo, at `time`.
    case setTempo(Double, at: HostTime)
    /// A validated patch in place of the graph, rules and control surface, at `time`; its
    /// graph change `prepared` on the control side as for `editGraph`.
    case install(Patch, at: HostTime, prepared: PreparedGraphChange? = nil)
    case setRules([ConnectionRule])
    /// Mappings checked against the graph of `graphRevision` (`MIDIRouter.revision`; `nil`:
    /// the current one): refused as stale when the graph was rebuilt since.
    case setMappings([Mapping], graphRevision: Int?)
    /// Invite `peer` too (`network.connect`), kept across restarts.
    case invitePeer(String)
    /// Stop inviting `peers` (`network.disconnect`).
    case stopInviting(Set<String>)
    /// Switch to the scene `name` at `time`.
    case switchScene(String, at: HostTime)
    /// The patch that scene `name` names was installed.
    case scenePatchInstalled(String)
    /// Fire trigger `name` at `time`.
    case fire(String, at: HostTime, clock: TransportClock, stamp: String)
    /// Bind the next control moved to parameter `parameter` of `node` within `seconds` of `time`.
    case learn(node: NodeID, parameter: String, seconds: Double, at: HostTime)
    case cancelLearn
    /// A controller with feedback connected: show it the values of the mappings from `sources`.
    case showValues(from: Set<NodeID>)
    /// Move the transport.
    case transport(TransportInput, TransportClock)
    /// JACK's transport changed (started, stopped, located): it `rolling` at `seconds` from
    /// its start. Followed with the patch's `transport: follow` (docs/jack.md#jack-transport).
    case jackTransport(rolling: Bool, seconds: Double, TransportClock)
}
