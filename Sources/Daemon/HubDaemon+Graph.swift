import Control
import Hub
import RenderCore

/// Graph edits, parameters, patches and rules at runtime (on the state's owner, for the control thread).
extension HubDaemon {
    /// Applies a graph change: note-offs for what it cuts off (removed built-in nodes get
    /// note-offs for their held notes, removed external nodes all-notes-off and
    /// sustain-off), then the new render program is compiled here and swapped in — the
    /// engine crossfades, so removed nodes fade out (and still receive those note-offs)
    /// while new ones fade in — the processors follow, and the state is saved.
    /// - Throws: `ControlError` when a processor parameter is unknown (nothing changed).
    func applyGraphChange(_ change: GraphChange, reason: NodeGoneReason = .removed) throws(ControlError) {
        guard !change.isEmpty else { return }
        var sink = makeSink()
        do {
            try router.apply(change, at: Self.now(), into: &sink)
        } catch {
            throw ControlError(.unknownParameter, error.description)
        }
        flush(sink)
        if let audio {
            do {
                for warning in try audio.install(change.new, stopped: change.stopped) { log.warning(warning) }
            } catch {
                log.error("cannot restart audio: \(error)")
            }
        } else {
            startAudioLater()
        }
        prepareJackOutputs()
        let startedIDs = Set(change.started.map(\.id))
        for node in change.stopped {
            if !startedIDs.contains(node.id) { log.publish(.nodeGone(node: node.id, reason: reason)) }
            log.info("node \(node.id) \(startedIDs.contains(node.id) ? "replaced" : "removed")")
        }
        for node in change.started where !change.stopped.contains(where: { $0.id == node.id }) {
            log.info("node \(node.id) added (\(node.body.kindName))")
        }
        for route in change.addedRoutes { log.info("route \(route) added") }
        for route in change.removedRoutes { log.info("route \(route) removed") }
        linkExternalNodes()
        saveState()
    }

    /// Sets a parameter of a processor or a built-in node, or the hub's tempo (node
    /// `transport`, when the graph has no node of that name); the value is saved with the state.
    /// A built-in node's value takes effect at the frame of `time` (seconds, monotonic; by default now).
    func setParameter(node id: NodeID, _ name: String, to value: Float, at time: Double? = nil) throws(ControlError)
        -> (ParameterInfo, Float) {
        let info = try parameterInfo(node: id, name)
        guard info.range.contains(value) else { throw Self.outOfRange(name, info) }
        if isTransport(id) {
            setTempo(Double(value))
        } else if router.processorParameters(id) != nil {
            try? router.setProcessorParameter(id, name, to: value)
        } else {
            setUnitParameter(id, name, to: value, at: time)
        }
        mappings.valueChanged(node: id, parameter: name, to: value)
        log.publish(.parameterChanged(node: id, parameter: name, value: Double(value)))
        saveState()
        return (info, value)
    }

    /// Sets parameter `name` of built-in node `id` and records it in the graph (kept for
    /// audio that starts later): an effect's `bypass` rewires the program around it (the
    /// engine crossfades), any other reaches the render thread at the frame of `time`.
    /// - Returns: false when the running audio has no such node or parameter (nothing set).
    /// - Thread: owner.
    @discardableResult
    func setUnitParameter(_ id: NodeID, _ name: String, to value: Float, at time: Double?) -> Bool {
        guard name == ParameterInfo.bypass.name, let node = router.graph.node(id), node.canBypass else {
            if let audio, audio.setParameter(id, name, to: value, at: time) == nil { return false }
            router.recordParameter(name, of: id, value: value)
            return true
        }
        router.recordParameter(name, of: id, value: value)
        guard let audio, router.graph.node(id)?.isBypassed != node.isBypassed else { return true }
        do {
            for warning in try audio.install(router.graph, stopped: []) { log.warning(warning) }
        } catch {
            log.error("cannot restart audio: \(error)")
        }
        log.info("node \(id) \(node.isBypassed ? "back in" : "bypassed")")
        return true
    }

    /// The input parameter `name` of node `id`: a processor's, a built-in node's, or the
    /// transport's tempo.
    func parameterInfo(node id: NodeID, _ name: String) throws(ControlError) -> ParameterInfo {
        let known: [ParameterInfo]
        if isTransport(id) {
            known = [Self.tempoParameter]
        } else {
            guard let node = router.graph.node(id) else { throw Self.unknownNode(id) }
            if let values = router.processorParameters(id) {
                known = values.infos
            } else if let parameters = audio?.parameters(of: id) {
                known = parameters.map(\.info)
            } else if audio == nil, let parameters = NodeCatalog.registry.parameters(of: node.body) {
                // No audio yet (or --no-audio): the value is kept in the graph and played when audio starts.
                known = parameters
            } else {
                throw ControlError(.unknownParameter, "node '\(id)' (\(node.body.kindName)) has no parameters here",
                                   fix: "run 'midihub nodes' to see which nodes have parameters")
            }
        }
        guard let info = known.first(where: { $0.name == name }) else { throw Self.unknownParameter(name, of: id, known: known) }
        return info
    }

    /// Whether `id` names the transport (no node of the graph has that name).
    func isTransport(_ id: NodeID) -> Bool {
        id == Self.transportID && router.graph.node(id) == nil
    }

    /// The pseudo-node that carries the hub's transport parameters.
    static let transportID = Patch.transportNode
    /// The transport's one parameter: the tempo in quarter notes per minute.
    static let tempoParameter = Patch.tempoParameter

    /// Moves the arpeggiator's clock (beat position kept) and the render engine's host tempo.
    func setTempo(_ beatsPerMinute: Double) {
        router.setTempo(beatsPerMinute, at: Self.now())
        audio?.driver.tempo = beatsPerMinute
    }

    /// Replaces graph and rules with a validated patch (the caller validated it).
    func install(_ patch: Patch) throws(ControlError) {
        try applyGraphChange(GraphChange(from: router.graph, to: patch.graph))
        setTempo(patch.tempo)
        scenes = patch.scenes
        currentScene = nil
        triggers = patch.triggers
        triggerLevels = [:]
        widgets = patch.widgets
        installMappings(patch.mappings)
        linkExternalNodes()
        portsCore.reconciler.rules = patch.rules
        reconcile()
        saveState()
    }

    /// Replaces the connection rules and reconciles at once.
    func setRules(_ rules: [ConnectionRule]) {
        portsCore.reconciler.rules = rules
        log.info("rules set (\(rules.count))")
        reconcile()
        saveState()
    }

    static func unknownNode(_ id: String) -> ControlError {
        ControlError(.unknownNode, "no node '\(id)'", fix: "run 'midihub nodes' to list nodes")
    }

    static func unknownParameter(_ name: String, of id: String, known: [ParameterInfo]) -> ControlError {
        ControlError(.unknownParameter, "node '\(id)' has no parameter '\(name)'",
                     fix: known.isEmpty ? "it has no parameters" : "use one of \(known.map(\.name).joined(separator: ", "))")
    }

    static func outOfRange(_ name: String, _ info: ParameterInfo) -> ControlError {
        ControlError(.invalidValue, "\(name) must lie in \(info.range.lowerBound)…\(info.range.upperBound)",
                     fix: "give a value in that range")
    }
}
