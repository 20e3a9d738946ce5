import Hub
import RenderCore

/// The unit nodes of the running render program as lists show them: each node's parameters
/// (an effect's `bypass` too) and the outputs it publishes, read without a lock from what the
/// render thread stored last. Made by the audio rack at each install; the owner puts it in
/// the snapshot it publishes (`HubView`), so the control side lists values without entering
/// the owner. The parameters' values are the graph's, the one place they are kept.
///
/// - Thread: any (a plain value; the output values are atomics).
struct RenderedNodes: Sendable {
    struct Entry: Sendable {
        let parameters: [ParameterInfo]
        let canBypass: Bool
        let outputs: [OutputInfo]
        let outputValues: OutputValues
    }

    private var entries: [NodeID: Entry] = [:]

    init() {}

    /// The unit nodes `instances` (by graph id).
    init(_ instances: [NodeID: any Node]) {
        entries = instances.mapValues { node in
            Entry(parameters: node.parameters, canBypass: node.descriptor.kind.canBypass, outputs: node.outputs,
                  outputValues: node.outputValues)
        }
    }

    /// The parameters of the graph's unit `node` with their current values (the graph's, where
    /// each value lives; an effect's `bypass` too); `nil` when it is not rendered.
    func parameters(of node: GraphNode) -> [(info: ParameterInfo, value: Float)]? {
        guard let entry = entries[node.id] else { return nil }
        let own = entry.parameters.map { ($0, $0.clamp(node.parameters[$0.name] ?? $0.defaultValue)) }
        guard entry.canBypass else { return own }
        return own + [(ParameterInfo.bypass, node.isBypassed ? 1 : 0)]
    }

    /// The value unit `id` publishes as its output `name` (voices, a level); `nil` when it
    /// has no such output.
    func outputValue(of id: NodeID, _ name: String) -> Float? {
        guard let entry = entries[id], let info = entry.outputs.first(where: { $0.name == name }) else { return nil }
        return entry.outputValues.load(Int(info.id))
    }
}
