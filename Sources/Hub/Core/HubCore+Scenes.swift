import MIDICore
/// Scenes (docs/mappings.md#scenes): named parameter snapshots switched at once, or patches
/// loaded whole.
extension HubCore {
    /// Switches to scene `name` at `time`: every value it sets takes effect at the frame of
    /// `time`; held notes go on sounding (a scene changes values, not the graph). A value whose
    /// node is gone is skipped with a warning. A scene that names a patch asks for the file to
    /// be loaded instead (`loadPatchFile`); the scene is current once it is installed.
    /// - Throws: `HubRefusal` when there is no such scene (nothing changed).
    /// - Thread: owner.
    mutating func switchScene(named name: String, at time: HostTime) throws(HubRefusal) -> (Scene, [HubEffect]) {
        guard let scene = scenes.first(where: { $0.name == name }) else {
            throw HubRefusal(.unknownScene, "no scene '\(name)'",
                             fix: scenes.isEmpty ? "add scenes: to the patch (docs/mappings.md#scenes)"
                                                 : "use one of \(scenes.map(\.name).joined(separator: ", "))")
        }
        if let path = scene.patch { return (scene, [.loadPatchFile(path, scene: name)]) }
        var effects: [HubEffect] = []
        for value in scene.values {
            do {
                effects += try assign(node: value.node, value.parameter, to: value.value, at: time, frameTime: time).1
            } catch {
                effects.append(.warning("scene '\(name)': \(value.node).\(value.parameter) not set: \(error.message)"))
            }
        }
        currentScene = name
        refreshTriggerLights(at: time)
        return (scene, effects + [.save(state), .sceneChanged(name)])
    }

    /// A mapping moved `scene.program` at `time`: switches to the scene of that program, if any.
    /// - Thread: owner.
    mutating func switchScene(program value: Float, at time: HostTime) -> [HubEffect] {
        let program = UInt8(clamping: Int(value.rounded()))
        guard let scene = scenes.first(where: { $0.program == program }) else { return [] }
        return (try? switchScene(named: scene.name, at: time))?.1 ?? []
    }

    /// The patch a scene named was installed: its scene of the same name, if any, is current.
    /// - Thread: owner.
    mutating func scenePatchInstalled(scene name: String) -> [HubEffect] {
        if scenes.contains(where: { $0.name == name }) { currentScene = name }
        refreshTriggerLights(at: lastKnownTime)
        return [.sceneChanged(name)]
    }
}
