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
            try expectKeys(fields, ["program", "set", "patch"])
            var scene = Scene(name: name, values: [])
            if let programNode = fields["program"] {
                let program = UInt8(try integer(programNode, in: 0...127, "a program"))
                if let other = programs.updateValue(name, forKey: program) {
                    throw error(at: programNode, "program \(program) already selects scene '\(other)'",
                                fix: "give each scene its own program")
                }
                scene.program = program
            }
            for (targetNode, valueNode) in try fields["set"].map({ node throws(PatchError) in try mapping(node, "set") }) ?? [:] {
                let (node, parameter) = try parameterName(targetNode, nodes: nodes)
                let info = try parameterInfo(node, parameter, nodes: nodes, at: targetNode)
                scene.values.append(SceneValue(node: node, parameter: parameter, value: try self.value(valueNode, within: info)))
            }
            if let patchNode = fields["patch"] {
                guard fields["set"] == nil else {
                    throw error(at: patchNode, "scene '\(name)' both loads a patch and sets values",
                                fix: "give the values in that patch, or drop `patch:`")
                }
                scene.patch = try existingFile(patchNode, "a patch file", of: "scene '\(name)'", fix: "give a .yaml patch, relative to this patch's folder")
            }
            scenes.append(scene)
        }
        return scenes
    }
}
