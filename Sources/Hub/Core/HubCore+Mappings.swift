import MIDICore
import RenderCore

/// What the mappings set from live MIDI (docs/mappings.md).
extension HubCore {
    /// Lands one value a mapping set from a message that arrived at `time`: the tempo, a
    /// processor's or a built-in node's parameter (at the frame of `time`, like a note that
    /// arrived with it), a scene by program, a trigger (pressed when its value rises into
    /// the top half; fired at the turn's tick, with the transport's clock: `takeMovedTriggers`). A target whose node is gone is skipped. The effects are appended to `effects` (the
    /// MIDI path reuses one buffer; a plain value lands without allocating).
    /// A built-in node's parameter (not `bypass`, which rewires the program) lands through the
    /// target resolved when the graph or the mappings last changed: the node by its index, the
    /// parameter by its id, the value kept in the graph in place — no name looked up.
    /// - Thread: owner (the MIDI input thread), for each mapped message.
    mutating func applyMapped(_ change: MappingEngine.Change, at time: HostTime, into effects: inout [HubEffect]) {
        if case .unit(let index, let info) = mappedTarget(of: change) {
            let value = info.clamp(change.value)
            router.setParameter(info.name, ofNodeAt: index, to: value)
            effects.append(.setResolvedParameter(node: change.node, index: index, parameter: info, value: value, at: time))
            effects.append(.parameterChanged(node: change.node, parameter: change.parameter, value: value))
            return
        }
        let isPseudoNode = router.graph.node(change.node) == nil
        if change.node == Patch.sceneNode, isPseudoNode {
            effects += switchScene(program: change.value, at: time)
        } else if change.node == Patch.triggerNode, isPseudoNode {
            let before = triggerLevels[change.parameter] ?? 0
            triggerLevels[change.parameter] = change.value
            triggerMoves.append((change.parameter, change.value >= 0.5 && before < 0.5, time))
        } else if land(node: change.node, change.parameter, to: change.value, at: time, frameTime: time, into: &effects) {
            effects.append(.parameterChanged(node: change.node, parameter: change.parameter, value: change.value))
        }
    }

    /// Where `change` lands, from the targets resolved for the current graph and mappings
    /// (resolved again, once, after either changed).
    private mutating func mappedTarget(of change: MappingEngine.Change) -> MappedTargets.Target {
        if !mappedTargets.isCurrent(revision: router.revision, mappings: mappings.listIdentity) {
            mappedTargets = MappedTargets(mappings: mappings, graph: router.graph, revision: router.revision, registry: registry)
        }
        return mappedTargets.target(mapping: change.mapping, target: change.target)
    }
}

/// Where each target of each mapping lands, resolved once for a graph revision and a mapping
/// list: a built-in node's parameter as the node's index in the graph and the parameter's
/// description, anything else (a processor, the tempo, a scene, a trigger, an effect's bypass,
/// a node that is not there) by name as before.
///
/// - Thread: owner (a plain value).
struct MappedTargets {
    enum Target: Equatable {
        /// `router.graph.nodes[index]`'s parameter `parameter`.
        case unit(index: Int, parameter: ParameterInfo)
        /// Landed by name (`HubCore.land`).
        case byName
    }

    private var revision = -1
    private var mappingList: ObjectIdentifier?
    private var targets: [[Target]] = []

    init() {}

    init(mappings: MappingEngine, graph: HubGraph, revision: Int, registry: NodeRegistry) {
        self.revision = revision
        mappingList = mappings.listIdentity
        var indexByID: [NodeID: Int] = [:]
        for (index, node) in graph.nodes.enumerated() { indexByID[node.id] = index }
        targets = mappings.mappings.map { mapping in
            mapping.targets.map { target in
                guard let index = indexByID[target.node], target.parameter != ParameterInfo.bypass.name,
                      case .unit = graph.nodes[index].body, !graph.nodes[index].body.isMIDIProcessor,
                      let info = registry.parameters(of: graph.nodes[index].body)?.first(where: { $0.name == target.parameter })
                else { return .byName }
                return .unit(index: index, parameter: info)
            }
        }
    }

    func isCurrent(revision: Int, mappings: ObjectIdentifier) -> Bool {
        revision == self.revision && mappings == mappingList
    }

    func target(mapping: Int, target: Int) -> Target {
        guard targets.indices.contains(mapping), targets[mapping].indices.contains(target) else { return .byName }
        return targets[mapping][target]
    }
}
