/// What the mappings set from live MIDI (docs/mappings.md).
extension HubCore {
    /// Lands one value a mapping set from a message that arrived at `time`: the tempo, a
    /// processor's or a built-in node's parameter (at the frame of `time`, like a note that
    /// arrived with it), a scene by program, a trigger (`triggerMoved`: pressed when its value
    /// rises into the top half; the shell fires it). A target whose node is gone is skipped. The effects are appended to `effects` (the
    /// MIDI path reuses one buffer; a plain value lands without allocating).
    /// - Thread: owner (the MIDI input thread), for each mapped message.
    public mutating func applyMapped(_ change: MappingEngine.Change, at time: Double, into effects: inout [HubEffect]) {
        let isPseudoNode = router.graph.node(change.node) == nil
        if change.node == Patch.sceneNode, isPseudoNode {
            effects += switchScene(program: change.value, at: time)
        } else if change.node == Patch.triggerNode, isPseudoNode {
            let before = triggerLevels[change.parameter] ?? 0
            triggerLevels[change.parameter] = change.value
            effects.append(.triggerMoved(change.parameter, pressed: change.value >= 0.5 && before < 0.5, at: time))
        } else if land(node: change.node, change.parameter, to: change.value, at: time, frameTime: time, into: &effects) {
            effects.append(.parameterChanged(node: change.node, parameter: change.parameter, value: change.value))
        }
    }
}
