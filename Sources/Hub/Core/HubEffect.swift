import MIDICore
import RenderCore
import Transport

/// What the shell around `HubCore` does for it: the render program to compile and swap in,
/// values for the render thread, the external ports to follow, what to log, publish and save.
/// The shell carries them out in order, on the state's owner; the slow ones (opening the sound
/// card, writing the state) go to a worker there.
///
/// - Thread: any (a plain value).
public enum HubEffect: Equatable, Sendable {
    /// Compile `graph` into the render program and swap it in (the engine crossfades; the
    /// nodes in `stopped` fade out); with no audio running, open the sound card for it.
    /// `routes`: the graph's audio routes when the control side worked them out.
    case installProgram(HubGraph, stopped: [GraphNode], routes: AudioRoutes?)
    /// Hand a built-in node's parameter to the render thread, at the frame of `time`
    /// (the monotonic clock; `nil`: the next block).
    case setNodeParameter(node: NodeID, parameter: String, value: Float, at: HostTime?)
    /// The same, resolved when the mappings or the graph last changed: node `node` is
    /// `router.graph.nodes[index]`, `parameter` its type's parameter, `value` already clamped.
    /// The shell reaches the render node by index, no name looked up.
    case setResolvedParameter(node: NodeID, index: Int, parameter: ParameterInfo, value: Float, at: HostTime)
    /// The render engine's host tempo (quarter notes per minute).
    case setEngineTempo(Double)
    /// Follow the graph's external nodes: open their JACK outputs, link midihub:out to their ports.
    case linkExternalNodes
    /// A node left the graph (not replaced): publish it.
    case nodeRemoved(NodeID)
    /// Publish a parameter's new value.
    case parameterChanged(node: NodeID, parameter: String, value: Float)
    /// Read and check the patch file at `path` off the owner, then install it (`install`) and
    /// tell the core (`scenePatchInstalled`): scene `scene` names it.
    case loadPatchFile(String, scene: String)
    /// Trigger `name` fired: publish it.
    case triggerFired(String)
    /// A `play` trigger: read the sequence at `path` off the owner, then load and play it
    /// (`HubInput.transport`).
    case playFile(String, trigger: String)
    /// A `send` trigger: send `bytes` (MIDI) to the ALSA ports `selector` names.
    case sendBytes([UInt8], to: String)
    /// What `PortsCore` asks of the ports: connect, disconnect, report.
    case ports(PortsCore.Effect)
    /// A port left (its device unplugged, its app gone): the notes it held ended at these
    /// nodes (the note-offs went into the input's sink). Publish it; forget its queues.
    case portLeft(PortDescriptor, releasedNotesAt: [NodeID])
    /// Show a mapping's value on its controllers (`Mapping.feedback`): send `messages` to the
    /// ports its `from` node selects.
    case feedback(Mapping, [MIDIMessage])
    /// The rules' settle time came (`HubInput.tick`): read the port list again
    /// (`HubInput.portsListed`, with which the core settles the rules).
    case listPorts
    /// Carry these transport messages out at their times (on the transport's clock
    /// the input came with): from `midihub:sequence` through the graph
    /// (`HubInput.sequenced`), clock to the external nodes that follow it.
    case schedule([SongPlayer.Scheduled])
    /// Drop what the transport handed out and has not played (the render thread's queue, the
    /// ALSA queue, JACK messages held).
    case dropScheduled
    /// The song's timeline from these points on (times on the transport's clock): hand it to
    /// the render thread, for the nodes' `HostSync`, when it renders the transport's clock.
    case timeline([SongPlayer.TimelinePoint])
    /// The transport moved: publish its status.
    case transportChanged
    /// Write a take `name` in `recordings/` beside the state, off the owner, then log `saying`.
    case writeTake(MIDIFile, name: String, saying: String)
    /// MIDI learn ended without a mapping: timed out, or cancelled.
    case learnEnded(timedOut: Bool)
    /// MIDI learn bound a control (the mappings already hold it): log and publish it.
    case mappingLearned(Mapping)
    /// The current scene changed (the trigger lights already show it): publish it.
    case sceneChanged(String)
    /// An informational log line.
    case log(String)
    /// A warning log line: something asked for was skipped.
    case warning(String)
    /// Keep these RTP-MIDI sessions from now on: start, change or stop the network host off
    /// the MIDI thread, invite the peers new to the list and end those gone from it.
    case network(NetworkSettings)
    /// Hand this state to the state writer.
    case save(HubState)
}
