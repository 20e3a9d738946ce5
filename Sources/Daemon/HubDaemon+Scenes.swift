import Control
import Hub

/// Scenes (docs/mappings.md#scenes): named parameter snapshots switched at once.
extension HubDaemon {
    /// Switches to scene `name`: every value it sets takes effect at the same frame; held
    /// notes go on sounding (a scene changes values, not the graph).
    /// - Throws: `ControlError` when there is no such scene; a value whose node is gone is skipped.
    /// - Thread: owner.
    @discardableResult
    func switchScene(named name: String) throws(ControlError) -> Scene {
        guard let scene = scenes.first(where: { $0.name == name }) else {
            throw ControlError(.unknownScene, "no scene '\(name)'",
                               fix: scenes.isEmpty ? "add scenes: to the patch (docs/mappings.md#scenes)"
                                                   : "use one of \(scenes.map(\.name).joined(separator: ", "))")
        }
        let time = Self.now()
        for value in scene.values {
            do {
                _ = try setParameter(node: value.node, value.parameter, to: value.value, at: time)
            } catch {
                log.warning("scene '\(name)': \(value.node).\(value.parameter) not set: \(error.message)")
            }
        }
        currentScene = name
        showTriggerStates()
        log.info("scene \(name)")
        log.publish(.sceneChanged(scene: name))
        return scene
    }

    /// A mapping moved `scene.program`: switches to the scene of that program, if any.
    func switchScene(program value: Float) {
        let program = UInt8(clamping: Int(value.rounded()))
        guard let scene = scenes.first(where: { $0.program == program }) else { return }
        _ = try? switchScene(named: scene.name)
    }

    /// The scenes as `scenes.list` shows them.
    func sceneSummaries() -> [SceneSummary] {
        MappingSummaries.scenes(scenes, current: currentScene)
    }
}
