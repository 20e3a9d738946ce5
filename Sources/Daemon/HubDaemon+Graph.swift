import Control
import Hub
import RenderCore

/// Graph edits, parameters, patches and rules at runtime: `HubCore` decides, the daemon
/// carries out its effects (on the state's owner, for the control thread).
extension HubDaemon {
    /// Applies a graph change now (`HubCore.changeGraph`): the note-offs for what it cuts off
    /// are sent, the new render program swapped in, the processors follow, the state is saved.
    /// - Throws: `ControlError` when a processor parameter is unknown (nothing changed).
    /// - Thread: owner.
    func applyGraphChange(_ change: GraphChange) throws(ControlError) {
        try run { (core, sink) throws(HubRefusal) in try core.changeGraph(change, at: Self.now(), into: &sink) }
    }

    /// Sets a parameter of a processor or a built-in node, or the hub's tempo (node
    /// `transport`, when the graph has no node of that name); the value is saved with the state.
    /// A built-in node's value takes effect at the frame of `time` (seconds, monotonic; by default now).
    /// - Thread: owner.
    func setParameter(node id: NodeID, _ name: String, to value: Float, at time: Double? = nil) throws(ControlError)
        -> (ParameterInfo, Float) {
        do {
            let (info, effects) = try core.setParameter(node: id, name, to: value, at: Self.now(), frameTime: time)
            carryOut(effects)
            return (info, value)
        } catch {
            throw ControlError(error)
        }
    }

    /// The input parameter `name` of node `id`: a processor's, a built-in node's, or the
    /// transport's tempo. - Thread: owner.
    func parameterInfo(node id: NodeID, _ name: String) throws(ControlError) -> ParameterInfo {
        do {
            return try core.parameterInfo(node: id, name)
        } catch {
            throw ControlError(error)
        }
    }

    /// Moves the hub's tempo now. - Thread: owner.
    func setTempo(_ beatsPerMinute: Double) {
        carryOut(core.setTempo(beatsPerMinute, at: Self.now()))
    }

    /// Replaces graph, rules and the control surface with a validated patch (the caller validated it).
    /// - Thread: owner.
    func install(_ patch: Patch) throws(ControlError) {
        try run { (core, sink) throws(HubRefusal) in try core.install(patch, at: Self.now(), into: &sink) }
    }

    /// Runs a core command that may send MIDI: what it sends is flushed to ALSA and the render
    /// thread, then its effects are carried out; a refusal is answered as a `ControlError`.
    func run(_ command: (inout HubCore, inout DaemonSink) throws(HubRefusal) -> [HubEffect]) throws(ControlError) {
        var sink = makeSink()
        let effects: [HubEffect]
        do {
            effects = try command(&core, &sink)
        } catch {
            throw ControlError(error)
        }
        flush(sink)
        carryOut(effects)
    }

    /// Replaces the connection rules and reconciles at once. - Thread: owner.
    func setRules(_ rules: [ConnectionRule]) {
        carryOut(core.setRules(rules))
    }

    /// Does what `HubCore` asks, in order.
    /// - Thread: owner.
    func carryOut(_ effects: [HubEffect]) {
        for effect in effects {
            switch effect {
            case .installProgram(let graph, let stopped):
                installProgram(graph, stopped: stopped)
            case .setNodeParameter(let node, let parameter, let value, let time):
                audio?.setParameter(node, parameter, to: value, at: time)
            case .setResolvedParameter(let node, let index, let parameter, let value, let time):
                audio?.setParameter(atIndex: index, of: node, parameter, to: value, at: time)
            case .setEngineTempo(let beatsPerMinute):
                audio?.driver.tempo = beatsPerMinute
            case .linkExternalNodes:
                prepareJackOutputs()
                linkExternalNodes()
            case .reconcile:
                reconcile()
            case .startMappings(let list):
                installMappings(list)
            case .nodeRemoved(let id):
                log.publish(.nodeGone(node: id, reason: .removed))
            case .parameterChanged(let node, let parameter, let value):
                log.publish(.parameterChanged(node: node, parameter: parameter, value: Double(value)))
            case .loadPatchFile(let path, let scene):
                loadPatch(at: path, for: scene)
            case .triggerMoved(let name, let pressed, let time):
                mappedTrigger(name, pressed: pressed, at: time)
            case .sceneChanged(let scene):
                showTriggerStates()
                log.info("scene \(scene)")
                log.publish(.sceneChanged(scene: scene))
            case .log(let line):
                log.info(line)
            case .warning(let line):
                log.warning(line)
            case .save(let state):
                stateWriter.submit(state)
            }
        }
    }

    /// Swaps the program for `graph` in (nodes in `stopped` fade out), or opens the sound card
    /// for it on a worker when no audio runs (`startAudioLater`).
    private func installProgram(_ graph: HubGraph, stopped: [GraphNode]) {
        guard let audio else { return startAudioLater() }
        do {
            for warning in try audio.install(graph, stopped: stopped) { log.warning(warning) }
        } catch {
            log.error("cannot restart audio: \(error)")
        }
    }

    static func unknownNode(_ id: String) -> ControlError {
        ControlError(HubRefusal.unknownNode(id))
    }

    static func unknownParameter(_ name: String, of id: String, known: [ParameterInfo]) -> ControlError {
        ControlError(HubRefusal.unknownParameter(name, of: id, known: known))
    }

    static func outOfRange(_ name: String, _ info: ParameterInfo) -> ControlError {
        ControlError(HubRefusal.outOfRange(name, info))
    }
}

extension ControlError {
    /// The control protocol's error for a command `HubCore` refused.
    init(_ refusal: HubRefusal) {
        let code: ControlErrorCode = switch refusal.kind {
        case .unknownNode: .unknownNode
        case .unknownParameter: .unknownParameter
        case .invalidValue: .invalidValue
        case .unknownScene: .unknownScene
        case .unknownTrigger: .unknownTrigger
        case .triggerDisabled: .triggerDisabled
        }
        self.init(code, refusal.message, fix: refusal.fix)
    }
}
