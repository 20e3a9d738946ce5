import MIDICore
import RenderCore

/// Graph edits, parameters, the tempo and whole patches.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// `prepared` when it was made against the graph as it is now, else `nil` (the rebase).
    func current(_ prepared: PreparedGraphChange?) -> PreparedGraphChange? {
        prepared.flatMap { $0.revision == router.revision ? $0 : nil }
    }

    /// Applies `edit` to the graph as it is now (`HubInput.editGraph`), as `changeGraph`: the
    /// change `prepared` for it against this graph, else worked out here.
    /// - Throws: `HubRefusal` when the edit does not fit the graph (nothing changed).
    /// - Thread: owner.
    mutating func editGraph(_ edit: GraphEdit, at time: HostTime, prepared: PreparedGraphChange? = nil,
                            into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        if let prepared { return try changeGraph(prepared.change, prepared: prepared, at: time, into: &sink) }
        let change: GraphChange
        do {
            change = try edit.change(of: router.graph)
        } catch {
            throw HubRefusal(error)
        }
        return try changeGraph(change, at: time, into: &sink)
    }

    /// Switches to `change.new` at `time`: note-offs for what it cuts off go into `sink` (removed
    /// built-in nodes get note-offs for their held notes, removed external nodes all-notes-off
    /// and sustain-off), the processors follow, and the new render program is to be swapped in
    /// (the engine crossfades, so removed nodes fade out and still receive those note-offs).
    /// - Throws: `HubRefusal` when a processor parameter is unknown (nothing changed).
    /// - Thread: owner.
    mutating func changeGraph(_ change: GraphChange, prepared: PreparedGraphChange? = nil, at time: HostTime,
                              into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        guard !change.isEmpty else { return [] }
        return try rewire(change, prepared: prepared, at: time, into: &sink) + [.linkExternalNodes, .save(state)]
    }

    /// `changeGraph` without following the external nodes and saving (the caller does).
    private mutating func rewire(_ change: GraphChange, prepared: PreparedGraphChange?, at time: HostTime,
                                 into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        do {
            try router.apply(change, prepared: prepared, at: time, into: &sink)
        } catch {
            throw HubRefusal(.unknownParameter, error.description)
        }
        var effects: [HubEffect] = [.installProgram(change.new, stopped: change.stopped, routes: prepared?.audioRoutes)]
        let startedIDs = Set(change.started.map(\.id))
        let stoppedIDs = Set(change.stopped.map(\.id))
        for node in change.stopped {
            let replaced = startedIDs.contains(node.id)
            if !replaced { effects.append(.nodeRemoved(node.id)) }
            effects.append(.log("node \(node.id) \(replaced ? "replaced" : "removed")"))
        }
        for node in change.started where !stoppedIDs.contains(node.id) {
            effects.append(.log("node \(node.id) added (\(node.body.kindName))"))
        }
        effects += change.addedRoutes.map { .log("route \($0) added") }
        effects += change.removedRoutes.map { .log("route \($0) removed") }
        return effects
    }

    /// Replaces graph, tempo, rules and the control surface with a validated patch at `time`:
    /// its graph change `prepared` against this graph, else worked out here.
    /// - Throws: `HubRefusal` when a processor parameter is unknown (nothing changed).
    /// - Thread: owner.
    mutating func install(_ patch: Patch, at time: HostTime, prepared: PreparedGraphChange? = nil,
                          into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        let change = prepared?.change ?? GraphChange(from: router.graph, to: patch.graph)
        var effects = change.isEmpty ? [] : try rewire(change, prepared: prepared, at: time, into: &sink)
        effects += setTempo(patch.tempo, at: time)
        scenes = patch.scenes
        currentScene = nil
        triggers = patch.triggers
        triggerLevels = [:]
        widgets = patch.widgets
        ports.reconciler.rules = patch.rules
        startMappings(patch.mappings)
        network = patch.network
        jackTransport = patch.jackTransport
        return effects + [.network(network)] + reconciled() + [.save(state)]
    }

    /// Sets a parameter of a processor or a built-in node, or the hub's tempo (node
    /// `transport`, when the graph has no node of that name), and keeps it in the state. A
    /// built-in node's value takes effect at the frame of `frameTime` (the monotonic clock;
    /// `nil`: the next block); `time` is now.
    /// - Returns: the parameter and the effects.
    /// - Throws: `HubRefusal` for an unknown node or parameter or a value out of range (nothing changed).
    /// - Thread: owner.
    mutating func setParameter(node id: NodeID, _ name: String, to value: Float, at time: HostTime,
                                      frameTime: HostTime? = nil) throws(HubRefusal) -> (ParameterInfo, [HubEffect]) {
        let (info, effects) = try assign(node: id, name, to: value, at: time, frameTime: frameTime)
        return (info, effects + [.save(state)])
    }

    /// `setParameter` without saving (a scene saves once for all its values).
    mutating func assign(node id: NodeID, _ name: String, to value: Float, at time: HostTime,
                         frameTime: HostTime?) throws(HubRefusal) -> (ParameterInfo, [HubEffect]) {
        let info = try parameterInfo(node: id, name)
        guard info.range.contains(value) else { throw .outOfRange(name, info) }
        var effects: [HubEffect] = []
        land(node: id, name, to: value, at: time, frameTime: frameTime, into: &effects)
        mappings.valueChanged(node: id, parameter: name)
        return (info, effects + [.parameterChanged(node: id, parameter: name, value: value)])
    }

    /// Lands a value where it belongs: the hub's tempo (node `transport`), a processor's
    /// parameter, or a built-in node's (`setUnitParameter`). `time` is now, `frameTime` the
    /// frame a built-in node's value takes effect at.
    /// - Returns: false when nothing was set (no such parameter there).
    @discardableResult
    mutating func land(node id: NodeID, _ name: String, to value: Float, at time: HostTime, frameTime: HostTime?,
                       into effects: inout [HubEffect]) -> Bool {
        if isTransport(id) {
            guard name == Self.tempoParameter.name else { return false }
            router.setTempo(Double(value), at: time)
            effects.append(.setEngineTempo(Double(value)))
            return true
        }
        if router.processorParameters(id) != nil {
            return (try? router.setProcessorParameter(id, name, to: value)) != nil
        }
        return setUnitParameter(id, name, to: value, at: frameTime, into: &effects)
    }

    /// Sets parameter `name` of built-in node `id` and records it in the graph (kept for audio
    /// that starts later): an effect's `bypass` rewires the program around it (the engine
    /// crossfades), any other reaches the render thread at the frame of `time`.
    /// The effects are appended to `effects` (the MIDI path reuses one buffer).
    /// - Returns: false when the graph has no such node or its type no such parameter (nothing set).
    /// - Thread: owner (also on the MIDI path, for mappings).
    @discardableResult
    mutating func setUnitParameter(_ id: NodeID, _ name: String, to value: Float, at time: HostTime?,
                                          into effects: inout [HubEffect]) -> Bool {
        guard let node = router.graph.node(id),
              registry.parameters(of: node.body)?.contains(where: { $0.name == name }) == true else { return false }
        router.recordParameter(name, of: id, value: value)
        guard name == ParameterInfo.bypass.name, node.canBypass else {
            effects.append(.setNodeParameter(node: id, parameter: name, value: value, at: time))
            return true
        }
        if router.graph.node(id)?.isBypassed != node.isBypassed {
            effects += [.installProgram(router.graph, stopped: [], routes: nil), .log("node \(id) \(node.isBypassed ? "back in" : "bypassed")")]
        }
        return true
    }

    /// The input parameter `name` of node `id`: a processor's, a built-in node's, or the
    /// transport's tempo.
    /// - Thread: owner.
    func parameterInfo(node id: NodeID, _ name: String) throws(HubRefusal) -> ParameterInfo {
        let known: [ParameterInfo]
        if isTransport(id) {
            known = [Self.tempoParameter]
        } else {
            guard let node = router.graph.node(id) else { throw .unknownNode(id) }
            if let values = router.processorParameters(id) {
                known = values.infos
            } else if let parameters = registry.parameters(of: node.body) {
                known = parameters
            } else {
                throw HubRefusal(.unknownParameter, "node '\(id)' (\(node.body.kindName)) has no parameters here",
                                 fix: "run 'midihub nodes' to see which nodes have parameters")
            }
        }
        guard let info = known.first(where: { $0.name == name }) else { throw .unknownParameter(name, of: id, known: known) }
        return info
    }

    /// Moves the hub's tempo at `time`: the arpeggiator's clock keeps its beat position, the
    /// render engine's host tempo follows.
    /// - Thread: owner.
    mutating func setTempo(_ beatsPerMinute: Double, at time: HostTime) -> [HubEffect] {
        var effects: [HubEffect] = []
        land(node: Self.transportID, Self.tempoParameter.name, to: Float(beatsPerMinute), at: time, frameTime: nil,
             into: &effects)
        return effects
    }
}
