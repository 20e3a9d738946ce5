/// `scenes:` — named parameter snapshots (docs/mappings.md#scenes).
/// - Thread: any (a plain value).
extension PatchReader {
    /// Reads the scenes of a patch whose nodes are `nodes`.
    func scenes(_ value: YAMLNode, nodes: [GraphNode]) throws(PatchError) -> [Scene] {
        var scenes: [Scene] = []
        var programs: [UInt8: String] = [:]
        for (nameNode, definition) in try mapping(value, "scenes") {
            let name = try string(nameNode, "a scene name")
            guard !scenes.contains(where: { $0.name == name }) else {
                throw error(at: nameNode, "scene '\(name)' is defined twice", fix: "give each scene its own name")
            }
            let fields = try mapping(definition, "a scene")
            try expectKeys(fields, ["program", "presets", "set", "patch"])
            var scene = Scene(name: name, values: [])
            if let programNode = fields["program"] {
                let program = UInt8(try integer(programNode, in: 0...127, "a program"))
                if let other = programs.updateValue(name, forKey: program) {
                    throw error(at: programNode, "program \(program) already selects scene '\(other)'",
                                fix: "give each scene its own program")
                }
                scene.program = program
            }
            for (nodeName, presetNode) in try fields["presets"].map({ node throws(PatchError) in try mapping(node, "presets") }) ?? [:] {
                scene.values += try presetValues(nodeName, presetNode, nodes: nodes)
            }
            for (targetNode, valueNode) in try fields["set"].map({ node throws(PatchError) in try mapping(node, "set") }) ?? [:] {
                let (node, parameter) = try parameterName(targetNode, nodes: nodes)
                let info = try parameterInfo(node, parameter, nodes: nodes, at: targetNode)
                scene.values.removeAll { $0.node == node && $0.parameter == parameter }  // over a preset's value
                scene.values.append(SceneValue(node: node, parameter: parameter, value: try self.value(valueNode, within: info)))
            }
            if let patchNode = fields["patch"] {
                guard fields["set"] == nil, fields["presets"] == nil else {
                    throw error(at: patchNode, "scene '\(name)' both loads a patch and sets values",
                                fix: "give the values in that patch, or drop `patch:`")
                }
                scene.patch = try existingFile(patchNode, "a patch file", of: "scene '\(name)'", fix: "give a .yaml patch, relative to this patch's folder")
            }
            scenes.append(scene)
        }
        return scenes
    }

    /// A scene's `presets:` entry `NODE: PRESET`: every control value of the preset (its
    /// label or URI) of the LV2 plugin node `NODE` hosts, as scene values.
    private func presetValues(_ nodeName: YAMLNode, _ presetNode: YAMLNode, nodes: [GraphNode]) throws(PatchError) -> [SceneValue] {
        let id = try string(nodeName, "a plugin node's name")
        guard let node = nodes.first(where: { $0.id == id }), case .unit(let descriptor) = node.body, descriptor.plugin != nil else {
            throw error(at: nodeName, "'\(id)' is no LV2 plugin node of this patch: only a plugin has presets",
                        fix: "name a `plugin:` node, or set its values with `set:`")
        }
        let preset = try string(presetNode, "a preset's label or URI")
        let values: [String: Float]
        do {
            values = try registry.presetValues(of: descriptor, preset: preset)
        } catch {
            throw self.error(at: presetNode, error.problem, fix: error.fix)
        }
        let infos = registry.parameters(of: node.body) ?? []
        return infos.compactMap { info in values[info.name].map { SceneValue(node: id, parameter: info.name, value: info.clamp($0)) } }
    }
}
