import ALSA
import Control
import Hub
import MIDICore
import SetupViews

/// Controller mappings and MIDI learn (docs/mappings.md): controls read from live MIDI move parameters.
extension HubDaemon {
    /// Lets learning or the mappings read `message` (from `address`, feeding `sources`), which
    /// arrived at `time`, and carries out what the mappings set: a built-in node's parameter
    /// lands at the frame of `time`, like a note that arrived with it.
    /// - Returns: whether learning or a mapping took the message (it goes no further).
    /// - Thread: input (the owner).
    func map(_ message: MIDIMessage, from address: PortAddress, sources: [NodeID], at time: Double) -> Bool {
        if learner != nil, learner?.observe(message, sources: sources, time: time) == true { return true }
        guard !core.mappings.isEmpty else { return false }
        mappedChanges.removeAll(keepingCapacity: true)
        let taken = core.mappings.handle(message, device: address.client << 8 | address.port, sources: sources, time: time,
                                    into: &mappedChanges)
        mappedEffects.removeAll(keepingCapacity: true)
        for change in mappedChanges { core.applyMapped(change, at: time, into: &mappedEffects) }
        carryOut(mappedEffects)
        if !mappedChanges.isEmpty { stateChanged = true }
        return taken
    }

    /// Starts the mappings `list` from the parameters' current values, and shows the
    /// controllers with feedback their values.
    /// - Thread: owner (or main before it starts).
    func installMappings(_ list: [Mapping]) {
        core.mappings = MappingEngine(list) { [self] node, parameter in currentValue(of: parameter, of: node) }
        core.mappings.showValues()
    }

    /// Shows the values due on their controllers (`Mapping.feedback`), at most once per
    /// `feedbackInterval`: a fader swept over the socket sends its latest value, not every step.
    /// - Thread: input (the owner), after each batch.
    func sendFeedbackIfDue() {
        let now = Self.now()
        guard core.mappings.hasFeedbackDue, now - lastFeedback >= Self.feedbackInterval else { return }
        lastFeedback = now
        for (mapping, messages) in core.mappings.takeFeedback(at: now) {
            for port in feedbackPorts(of: mapping) {
                guard let address = SeqAddress(port.address) else { continue }
                for message in messages { receivers.send(message, to: address) }
            }
        }
    }

    /// Feedback is sent at most this often (seconds).
    static let feedbackInterval = 0.02

    /// Where a mapping shows its values: every writable ALSA port (but midihub's) that its
    /// `from` node selects. midihub:out is connected to them (`linkExternalNodes`): kernel
    /// ports take events only from connected senders.
    func feedbackPorts(of mapping: Mapping) -> [PortDescriptor] {
        guard mapping.feedback, let from = mapping.from, case .source(let selector)? = core.router.graph.node(from)?.body else { return [] }
        return ports.descriptors.filter { port in
            port.direction.canReceive && port.address.client != client.clientID && !JackPortTable.isJack(port.address)
                && selector.matches(port)
        }
    }

    /// A controller just connected for feedback (it came back, or the daemon started) is
    /// shown its values: the mappings with feedback from the source nodes that select it.
    func showValues(toConnected port: PortDescriptor) {
        let sources = core.router.graph.nodes.compactMap { node -> NodeID? in
            if case .source(let selector) = node.body, selector.matches(port) { node.id } else { nil }
        }
        if !sources.isEmpty { core.mappings.showValues(from: Set(sources)) }
    }

    /// A parameter's value as the graph keeps it (set in the patch or at runtime), else its default.
    func currentValue(of parameter: String, of id: NodeID) -> Float? {
        if id == Patch.sceneNode, core.router.graph.node(id) == nil {
            return core.scenes.first { $0.name == core.currentScene }?.program.map(Float.init)
        }
        if id == Patch.triggerNode, core.router.graph.node(id) == nil {
            return core.allTriggers.first { $0.name == parameter }.map { Self.light(state(of: $0)) }
        }
        return MappingSummaries.value(of: parameter, of: id, in: core.router.graph, tempo: core.router.clock.beatsPerMinute)
    }

    /// Replaces the mappings (`mappings.set`, a learned one): installs them, connects the
    /// controllers they show values on, saves the state.
    /// - Thread: owner.
    func replaceMappings(_ list: [Mapping]) {
        carryOut(core.setMappings(list))
    }

    /// Binds the next control moved to `name` of node `id` within `seconds` (replacing a
    /// learning still armed, which ends as cancelled).
    /// - Throws: `ControlError` for an unknown node or parameter.
    func learn(node id: NodeID, _ name: String, seconds: Double) throws(ControlError) {
        let info = try parameterInfo(node: id, name)
        cancelLearning()
        let target = MappingTarget(node: id, parameter: name, low: info.range.lowerBound, high: info.range.upperBound)
        learner = MappingLearner(target: target, deadline: Self.now() + seconds)
        log.info("learning \(id).\(name): move a control within \(Int(seconds)) s")
    }

    /// Ends learning, if armed, publishing `learn-ended` (cancelled).
    func cancelLearning() {
        guard learner != nil else { return }
        learner = nil
        log.publish(.learnEnded(reason: .cancelled))
    }

    /// Once learning came to something: the learned mapping replaces those that moved only
    /// that parameter, and is published; or learning timed out.
    /// - Thread: input (the owner), after each batch.
    func finishLearning() {
        guard let outcome = learner?.outcome(at: Self.now()), let target = learner?.target else { return }
        learner = nil
        switch outcome {
        case .timedOut:
            log.warning("no control moved while learning \(target.node).\(target.parameter) "
                + "(fix: move a knob, fader or pad of a controller connected to midihub:in, then learn again)")
            log.publish(.learnEnded(reason: .timedOut))
        case .learned(let mapping):
            var list = core.mappings.mappings.filter { $0.targets.map(\.node) != [target.node] || $0.targets.map(\.parameter) != [target.parameter] }
            list.append(mapping)
            replaceMappings(list)
            let summary = mappingSummary(mapping)
            log.info("learned " + MappingSummaries.line(summary))
            log.publish(.mappingLearned(summary))
        }
    }

    /// The mappings as `mappings.list` shows them, with their targets' values now.
    func mappingSummaries() -> [MappingSummary] {
        core.mappings.mappings.map(mappingSummary)
    }

    private func mappingSummary(_ mapping: Mapping) -> MappingSummary {
        MappingSummaries.summary(mapping) { [self] id, name in currentValue(of: name, of: id) }
    }
}
