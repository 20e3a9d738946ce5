import RenderCore

/// What the shell around `HubCore` does for it: the render program to compile and swap in,
/// values for the render thread, the external ports to follow, what to log, publish and save.
/// The shell carries them out in order, on the state's owner; the slow ones (opening the sound
/// card, writing the state) go to a worker there.
///
/// - Thread: any (a plain value).
public enum HubEffect: Hashable, Sendable {
    /// Compile `graph` into the render program and swap it in (the engine crossfades; the
    /// nodes in `stopped` fade out); with no audio running, open the sound card for it.
    case installProgram(HubGraph, stopped: [GraphNode])
    /// Hand a built-in node's parameter to the render thread, at the frame of `time`
    /// (monotonic seconds; `nil`: the next block).
    case setNodeParameter(node: NodeID, parameter: String, value: Float, at: Double?)
    /// The same, resolved when the mappings or the graph last changed: node `node` is
    /// `router.graph.nodes[index]`, `parameter` its type's parameter, `value` already clamped.
    /// The shell reaches the render node by index, no name looked up.
    case setResolvedParameter(node: NodeID, index: Int, parameter: ParameterInfo, value: Float, at: Double)
    /// The render engine's host tempo (quarter notes per minute).
    case setEngineTempo(Double)
    /// Follow the graph's external nodes: open their JACK outputs, link midihub:out to their ports.
    case linkExternalNodes
    /// Apply the rules and runtime edits to the ports now.
    case reconcile
    /// Start these mappings from the parameters' current values, showing them on the controllers.
    case startMappings([Mapping])
    /// A node left the graph (not replaced): publish it.
    case nodeRemoved(NodeID)
    /// Publish a parameter's new value.
    case parameterChanged(node: NodeID, parameter: String, value: Float)
    /// Read and check the patch file at `path` off the owner, then install it (`install`) and
    /// tell the core (`scenePatchInstalled`): scene `scene` names it.
    case loadPatchFile(String, scene: String)
    /// A mapping moved trigger `name` at `time`: fire it when `pressed` (its value rose into
    /// the top half; the shell runs triggers: the transport, panic, sends), then show its state.
    case triggerMoved(String, pressed: Bool, at: Double)
    /// The current scene changed: publish it and show the triggers' lights again.
    case sceneChanged(String)
    /// An informational log line.
    case log(String)
    /// A warning log line: something asked for was skipped.
    case warning(String)
    /// Hand this state to the state writer.
    case save(HubState)
}
