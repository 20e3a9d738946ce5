import MIDICore
/// MIDI learn (docs/mappings.md#learn): the next control moved binds to a parameter.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// Binds the next control moved to `name` of node `id` within `seconds` of `time`
    /// (monotonic), replacing a learning still armed (which ends as cancelled).
    /// - Throws: `HubRefusal` for an unknown node or parameter.
    mutating func learn(node id: NodeID, _ name: String, seconds: Double, at time: HostTime) throws(HubRefusal) -> [HubEffect] {
        let info = try parameterInfo(node: id, name)
        var effects = cancelLearning()
        let target = MappingTarget(node: id, parameter: name, low: info.range.lowerBound, high: info.range.upperBound)
        learner = MappingLearner(target: target, deadline: time + HostDuration(seconds: seconds))
        effects.append(.log("learning \(id).\(name): move a control within \(Int(seconds)) s"))
        return effects
    }

    /// Ends learning, if armed (`learnEnded`, cancelled).
    mutating func cancelLearning() -> [HubEffect] {
        guard learner != nil else { return [] }
        learner = nil
        return [.learnEnded(timedOut: false)]
    }

    /// Once learning came to something by `time`: the learned mapping replaces those that
    /// moved only that parameter (`mappingLearned`); or learning timed out.
    mutating func finishLearning(at time: HostTime) -> [HubEffect] {
        guard let outcome = learner?.outcome(at: time), let target = learner?.target else { return [] }
        learner = nil
        switch outcome {
        case .timedOut:
            return [.warning("no control moved while learning \(target.node).\(target.parameter) "
                        + "(fix: move a knob, fader or pad of a controller connected to midihub:in, then learn again)"),
                    .learnEnded(timedOut: true)]
        case .learned(let mapping):
            var list = mappings.mappings.filter {
                $0.targets.map(\.node) != [target.node] || $0.targets.map(\.parameter) != [target.parameter]
            }
            list.append(mapping)
            return setMappings(list) + [.mappingLearned(mapping)]
        }
    }
}
