/// Every parameter's value now, read where the hub keeps it — the one place each lives: a
/// node's in the graph (set in the patch or at runtime, else its type's default), the tempo
/// (`transport`), the current scene's program (`scene`), a trigger's light (`trigger`).
/// The mapping engine reads it for pickup, toggles, encoders and feedback; the lists read it.
///
/// - Thread: owner (made there for one message or one turn); a plain value.
struct HubValues: ParameterReading {
    let graph: HubGraph
    let registry: NodeRegistry
    let tempo: Double
    let sceneProgram: Float?
    let triggerLights: [String: Float]

    /// - Thread: owner.
    func value(of parameter: String, of id: NodeID) -> Float? {
        if id == Patch.sceneNode, graph.node(id) == nil { return sceneProgram }
        if id == Patch.triggerNode, graph.node(id) == nil { return triggerLights[parameter] }
        return graph.value(of: parameter, of: id, registry: registry, tempo: tempo)
    }
}
