import Control
import Dispatch
import Hub

/// Scenes (docs/mappings.md#scenes): named parameter snapshots switched at once, or patches
/// loaded whole.
extension HubDaemon {
    /// Switches to scene `name`: every value it sets takes effect at the same frame; held
    /// notes go on sounding (a scene changes values, not the graph). A scene that names a
    /// patch loads it instead, shortly after (`loadPatch(at:for:)`).
    /// - Throws: `ControlError` when there is no such scene; a value whose node is gone is skipped.
    /// - Thread: owner.
    @discardableResult
    func switchScene(named name: String) throws(ControlError) -> Scene {
        guard let scene = core.scenes.first(where: { $0.name == name }) else {
            throw ControlError(.unknownScene, "no scene '\(name)'",
                               fix: core.scenes.isEmpty ? "add scenes: to the patch (docs/mappings.md#scenes)"
                                                   : "use one of \(core.scenes.map(\.name).joined(separator: ", "))")
        }
        if let path = scene.patch {
            loadPatch(at: path, for: name)
            return scene
        }
        let time = Self.now()
        for value in scene.values {
            do {
                _ = try setParameter(node: value.node, value.parameter, to: value.value, at: time)
            } catch {
                log.warning("scene '\(name)': \(value.node).\(value.parameter) not set: \(error.message)")
            }
        }
        core.currentScene = name
        showTriggerStates()
        log.info("scene \(name)")
        log.publish(.sceneChanged(scene: name))
        return scene
    }

    /// Scene `name` loads the patch at `path`: read and checked on a worker (off the MIDI
    /// path), installed on the owner; the loaded patch's scene of the same name, if any, is
    /// then the current one, and the file is the one watched. A broken file is logged in one
    /// line and the setup stays.
    /// - Thread: owner.
    private func loadPatch(at path: String, for name: String) {
        slowWork.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { slowWork.leave() }
            do {
                try installPatchFile(at: path) { [self] in
                    if core.scenes.contains(where: { $0.name == name }) { core.currentScene = name }
                    showTriggerStates()
                    log.info("scene \(name): loaded patch \(path)")
                    log.publish(.sceneChanged(scene: name))
                }
            } catch {
                log.error("scene '\(name)': patch \(path) not loaded, the setup stays: \(error)")
            }
        }
    }

    /// A mapping moved `scene.program`: switches to the scene of that program, if any.
    func switchScene(program value: Float) {
        let program = UInt8(clamping: Int(value.rounded()))
        guard let scene = core.scenes.first(where: { $0.program == program }) else { return }
        _ = try? switchScene(named: scene.name)
    }

    /// The scenes as `scenes.list` shows them.
    func sceneSummaries() -> [SceneSummary] {
        MappingSummaries.scenes(core.scenes, current: core.currentScene)
    }
}
