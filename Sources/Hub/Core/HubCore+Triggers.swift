import RenderCore

/// Triggers (docs/mappings.md#triggers): the core fires those that act on the hub's own state
/// — panic, tap tempo, an effect's bypass, a scene; the daemon runs the transport's, `play`
/// and `send`, which act on the transport and the ports.
extension HubCore {
    /// The hub's triggers, then the patch's.
    /// - Thread: owner.
    public var allTriggers: [Trigger] { Trigger.system + triggers }

    /// The trigger called `name`.
    /// - Throws: `HubRefusal` when there is none (the fix lists them).
    /// - Thread: owner.
    public func trigger(named name: String) throws(HubRefusal) -> Trigger {
        guard let trigger = allTriggers.first(where: { $0.name == name }) else {
            throw HubRefusal(.unknownTrigger, "no trigger '\(name)'",
                             fix: "use one of \(allTriggers.map(\.name).joined(separator: ", "))")
        }
        return trigger
    }

    /// Fires `trigger` at `time` when it acts on the hub's state: panic ends every sounding
    /// note (into `sink`), tap tempo moves the tempo from the second tap on, bypass flips an
    /// effect's bypass, scene switches. Other actions (the transport's, `play`, `send`) are the
    /// daemon's: nothing happens here.
    /// - Throws: `HubRefusal` when the bypass trigger's effect is gone or its scene is unknown
    ///   (nothing changed).
    /// - Thread: owner.
    public mutating func fire(_ trigger: Trigger, at time: Double, into sink: inout some RouteSink) throws(HubRefusal)
        -> [HubEffect] {
        switch trigger.action {
        case .panic:
            router.panic(at: time, into: &sink)
            return [.log("panic: every note ended")]
        case .tapTempo:
            guard let tempo = tapTempo.tap(at: time) else { return [] }
            return try setParameter(node: Self.transportID, Self.tempoParameter.name,
                                    to: Self.tempoParameter.clamp(Float(tempo)), at: time).1
        case .bypass(let node):
            // A runtime edit may have removed the effect: the trigger cannot fire then.
            guard let effect = router.graph.node(node) else {
                throw HubRefusal(.triggerDisabled, "trigger '\(trigger.name)' is disabled: the patch's effect '\(node)' is gone",
                                 fix: "load the patch again, or add the node back")
            }
            return try setParameter(node: node, ParameterInfo.bypass.name, to: effect.isBypassed ? 0 : 1, at: time,
                                    frameTime: time).1
        case .scene(let scene):
            return try switchScene(named: scene, at: time).1
        case .transport, .play, .send:
            return []
        }
    }
}
