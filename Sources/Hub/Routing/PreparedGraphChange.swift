import MIDICore

/// A graph change worked out on the control side against the graph of router revision
/// `revision` (the published snapshot's `graphRevision`): the change, the route table of its
/// new graph, the processors of the nodes it starts and its audio routes — everything about
/// it that costs more than the change itself. The owner applies it as it is when its graph
/// is still that revision (nothing diffed or compiled on the MIDI thread); when the graph
/// moved meanwhile, the owner works the change out again from the request on the graph it
/// has (the rebase) and drops this one.
///
/// - Thread: control (made there; handed to the owner once: a plain value of new processors
///   no other thread holds).
public struct PreparedGraphChange: @unchecked Sendable {
    /// The router revision of the graph the change was made from.
    public let revision: Int
    public let change: GraphChange
    /// The new graph's audio routes, for the render program.
    public let audioRoutes: AudioRoutes
    let routes: CompiledRoutes
    /// The processor of each processor node the change starts.
    let processors: [NodeID: any MIDIProcessor]

    /// Works out `change`, made from the graph of router revision `revision`; the processors
    /// of LV2 MIDI effects are made by `plugins`.
    /// - Throws: `ParameterError` when a processor node names an unknown parameter.
    public init(_ change: GraphChange, against revision: Int, plugins: (any PluginDirectory)? = nil) throws(ParameterError) {
        self.revision = revision
        self.change = change
        audioRoutes = change.new.audioRoutes
        routes = CompiledRoutes(change.new)
        var processors: [NodeID: any MIDIProcessor] = [:]
        for node in change.started {
            if let processor = try node.makeProcessor(plugins: plugins) { processors[node.id] = processor }
        }
        self.processors = processors
    }
}
