import RenderCore

/// `mappings:` — controllers to parameters (docs/mappings.md).
/// - Thread: any (a plain value).
extension PatchReader {
    /// The keys one mapping may have.
    static let mappingKeys = ["control", "from", "channel", "to", "mode", "encoding", "pickup", "step", "acceleration",
                              "pass", "feedback", "bits", "range", "curve", "invert", "steps", "values"]
    /// The keys a target written as a mapping may have.
    static let targetKeys = ["node", "parameter", "range", "curve", "invert", "steps", "values"]

    /// Reads the mappings of a patch whose nodes are `nodes`.
    func mappings(_ value: YAMLNode, nodes: [GraphNode], triggers: [Trigger] = Trigger.system) throws(PatchError) -> [Mapping] {
        var result: [Mapping] = []
        for item in try sequence(value, "mappings") { result.append(try mapping(item, nodes: nodes, triggers: triggers)) }
        return result
    }

    private func mapping(_ item: YAMLNode, nodes: [GraphNode], triggers: [Trigger]) throws(PatchError) -> Mapping {
        let fields = try mapping(item, "a mapping")
        try expectKeys(fields, Self.mappingKeys)
        guard let controlNode = fields["control"], let targetsNode = fields["to"] else {
            throw error(at: item, "a mapping needs `control` and `to`",
                        fix: "write a mapping like `{control: cc 74, to: synth.brightness}`")
        }
        var fine = true
        if let bits = fields["bits"] {
            guard let text = bits.scalar?.string, text == "7" || text == "14",
                  let control = controlNode.scalar?.string.lowercased(), control.hasPrefix("nrpn") || control.hasPrefix("rpn") else {
                throw error(at: bits, "`bits` is 7 or 14, for an nrpn or rpn control",
                            fix: "write `bits: 7` for a controller that sends only data entry's MSB, or drop it")
            }
            fine = text == "14"
        }
        var result = Mapping(source: try control(controlNode, fine: fine), targets: [])
        if let from = fields["from"] {
            let id = try string(from, "a source node")
            guard let node = nodes.first(where: { $0.id == id }), case .source = node.body else {
                throw error(at: from, "mapping from '\(id)': no source node of that name",
                            fix: "name a node with `source:` (the controller's ports), or drop `from:` to take any port")
            }
            result.from = id
        }
        if let channel = fields["channel"] { result.channel = UInt8(try integer(channel, in: 1...16, "a channel") - 1) }
        result.mode = try mode(fields, source: result.source, at: item)
        if let pickup = fields["pickup"] { result.pickup = try choice(pickup, PickupMode.self, "pickup mode") }
        if let step = fields["step"] {
            result.step = try number(step, "step")
            guard result.step > 0, result.step <= 1 else {
                throw error(at: step, "step must lie in 0…1 (a share of the range per tick)", fix: "write a step like 0.01")
            }
        }
        if let acceleration = fields["acceleration"] {
            result.acceleration = try number(acceleration, "acceleration")
            guard (0...10).contains(result.acceleration) else {
                throw error(at: acceleration, "acceleration must lie in 0…10", fix: "write 0 (none) to 10")
            }
        }
        if let pass = fields["pass"] { result.passes = try flag(pass, "pass") }
        if let feedback = fields["feedback"] {
            result.feedback = try flag(feedback, "feedback")
            if result.feedback, result.from == nil {
                throw error(at: feedback, "feedback needs `from`: the source node of the controller whose lights or faders show the value",
                            fix: "add `from: NODE`, a node with `source:` naming the controller")
            }
            if result.feedback, !result.canShowValues {
                throw error(at: feedback, "a \(result.source.label) control cannot show a value",
                            fix: "drop `feedback`, or map a cc, cc14, nrpn, rpn, note or pitch bend")
            }
        }
        let defaults = fields
        let items = targetsNode.sequence.map(Array.init) ?? [targetsNode]
        guard !items.isEmpty else {
            throw error(at: targetsNode, "a mapping needs at least one target", fix: "write `to: NODE.PARAMETER`")
        }
        for target in items { result.targets.append(try self.target(target, defaults: defaults, nodes: nodes, triggers: triggers)) }
        if result.targets.contains(where: { $0.node == Patch.triggerNode }), result.mode != .absolute,
           result.mode != .button(.momentary), let modeNode = fields["mode"] {
            throw error(at: modeNode, "a trigger fires on each press (a note-on, a controller reaching 64)",
                        fix: "drop `mode` from a mapping to trigger.NAME")
        }
        return result
    }

    /// `cc 74`, `cc14 16`, `nrpn 1000`, `rpn 0`, `note C2`, `poly pressure 60`, `pitch bend`,
    /// `channel pressure`, `program change`.
    private func control(_ node: YAMLNode, fine: Bool) throws(PatchError) -> ControlSource {
        let text = try string(node, "a control").lowercased()
        let words = text.split(separator: " ").map(String.init)
        let fix = "write one of: cc N, cc14 N (0…31), nrpn N, rpn N, note N, poly pressure N, pitch bend, channel pressure, program change"
        func number(_ word: String, _ range: ClosedRange<Int>) throws(PatchError) -> Int {
            guard let value = Int(word), range.contains(value) else {
                throw error(at: node, "control '\(text)': \(word) is outside \(range.lowerBound)…\(range.upperBound)", fix: fix)
            }
            return value
        }
        func note(_ word: String) throws(PatchError) -> UInt8 {
            if let value = Int(word), let note = UInt8.midiData(value) { return note }
            if let note = NoteName.number(word.prefix(1).uppercased() + word.dropFirst()) { return note }
            throw error(at: node, "control '\(text)': '\(word)' is not a note", fix: "write a number 0…127 or a name like C4")
        }
        switch text {
        case "pitch bend": return .pitchBend
        case "channel pressure": return .channelPressure
        case "program change": return .programChange
        default: break
        }
        if words.count == 3, words[0] == "poly", words[1] == "pressure" { return .polyPressure(try note(words[2])) }
        // A kind without its number ("cc" alone) is as unknown as a misspelt one.
        guard words.count == 2 else { throw error(at: node, "unknown control '\(text)'", fix: fix) }
        switch words[0] {
        case "cc": return .controller(UInt8(try number(words[1], 0...127)))
        case "cc14": return .controllerPair(UInt8(try number(words[1], 0...31)))
        case "nrpn": return .nrpn(UInt16(try number(words[1], 0...16383)), fine: fine)
        case "rpn": return .rpn(UInt16(try number(words[1], 0...16383)), fine: fine)
        case "note": return .note(try note(words[1]))
        default: throw error(at: node, "unknown control '\(text)'", fix: fix)
        }
    }

    /// `mode:` (and `encoding:` for relative encoders); notes default to momentary buttons.
    private func mode(_ fields: YAMLNode.Mapping, source: ControlSource, at item: YAMLNode) throws(PatchError) -> ControlMode {
        let encoding = try fields["encoding"].map { node throws(PatchError) in try choice(node, RelativeEncoding.self, "encoding") }
        guard let modeNode = fields["mode"] else {
            if let node = fields["encoding"] {
                throw error(at: node, "`encoding` belongs to relative encoders", fix: "add `mode: relative`")
            }
            if case .note = source { return .button(.momentary) }
            return .absolute
        }
        let name = try string(modeNode, "a mode")
        if let node = fields["encoding"], name != "relative" {
            throw error(at: node, "`encoding` belongs to relative encoders", fix: "write `mode: relative` or drop `encoding`")
        }
        switch name {
        case "absolute": return .absolute
        case "relative":
            guard case .controller = source else {
                throw error(at: modeNode, "a relative encoder sends a 7-bit controller", fix: "use `control: cc N` with `mode: relative`")
            }
            return .relative(encoding ?? .twosComplement)
        case "velocity":
            guard case .note = source else { throw error(at: modeNode, "`mode: velocity` reads a note", fix: "use `control: note N`") }
            return .velocity
        default:
            guard let button = ButtonMode(rawValue: name) else {
                throw error(at: modeNode, "unknown mode '\(name)'",
                            fix: "use absolute, relative, velocity, " + ButtonMode.allCases.map(\.rawValue).joined(separator: ", "))
            }
            guard source.isButton else {
                throw error(at: modeNode, "a \(name) button reads a note or a controller", fix: "use `control: note N` or `control: cc N`")
            }
            return .button(button)
        }
    }

    /// One target: `NODE.PARAMETER` (the mapping's range and curve) or a mapping with its own.
    private func target(_ item: YAMLNode, defaults: YAMLNode.Mapping, nodes: [GraphNode], triggers: [Trigger]) throws(PatchError) -> MappingTarget {
        var fields = defaults
        let node: NodeID, parameter: String
        var at = item
        if item.scalar != nil {
            (node, parameter) = try parameterName(item, nodes: nodes)
        } else {
            let own = try mapping(item, "a target")
            try expectKeys(own, Self.targetKeys)
            guard let nodeField = own["node"], let parameterField = own["parameter"] else {
                throw error(at: item, "a target needs `node` and `parameter`", fix: "write `{node: synth, parameter: brightness}`")
            }
            node = try string(nodeField, "a node name")
            parameter = try string(parameterField, "a parameter name")
            at = nodeField
            for (key, value) in own { fields[key] = value }
        }
        let info = try parameterInfo(node, parameter, nodes: nodes, triggers: triggers, at: at)
        var target = MappingTarget(node: node, parameter: parameter, low: info.range.lowerBound, high: info.range.upperBound)
        if let range = fields["range"] {
            let ends = try sequence(range, "range")
            guard ends.count == 2 else { throw error(at: range, "a range has two ends", fix: "write `range: [LOW, HIGH]`") }
            target.low = try value(ends[0], within: info)
            target.high = try value(ends[1], within: info)
        }
        if let curve = fields["curve"] { target.curve = try choice(curve, MappingCurve.self, "curve") }
        if let invert = fields["invert"] { target.invert = try flag(invert, "invert") }
        if let steps = fields["steps"] { target.steps = try integer(steps, in: 2...128, "steps") }
        if let values = fields["values"] {
            let list = try sequence(values, "values")
            guard list.count >= 2 else { throw error(at: values, "values lists at least two", fix: "write `values: [0, 1, 2]`") }
            var chosen: [Float] = []
            for item in list { chosen.append(try value(item, within: info)) }
            target.values = chosen
        } else if target.steps == nil, info.enumerates, info.unit != .boolean {
            // An enumeration steps through its choices (those within the range), never between them.
            let (low, high) = (min(target.low, target.high), max(target.low, target.high))
            let within = info.choices.map(\.value).filter { (low...high).contains($0) }.sorted()
            if within.count >= 2 { target.values = target.low > target.high ? within.reversed() : within }
        }
        return target
    }

    /// `NODE.PARAMETER` split at the node of `nodes` (or pseudo-node) it starts with.
    func parameterName(_ item: YAMLNode, nodes: [GraphNode]) throws(PatchError) -> (NodeID, String) {
        let text = try string(item, "NODE.PARAMETER")
        let ids = nodes.map(\.id) + [Patch.transportNode, Patch.sceneNode, Patch.triggerNode]
        guard let id = ids.filter({ text.hasPrefix($0 + ".") }).max(by: { $0.count < $1.count }) else {
            throw error(at: item, "target '\(text)' names no node of this patch",
                        fix: "write NODE.PARAMETER, like synth.brightness, or transport.tempo")
        }
        return (id, String(text.dropFirst(id.count + 1)))
    }

    /// The parameter a target names, checked against its node's type.
    func parameterInfo(_ id: NodeID, _ name: String, nodes: [GraphNode], triggers: [Trigger] = Trigger.system, at item: YAMLNode) throws(PatchError) -> ParameterInfo {
        let known: [ParameterInfo]
        if let node = nodes.first(where: { $0.id == id }) {
            guard let parameters = registry.parameters(of: node.body), !parameters.isEmpty else {
                throw error(at: item, "node '\(id)' has no parameters a mapping can move",
                            fix: "map to a processor's or a built-in node's parameter")
            }
            known = parameters
        } else if id == Patch.transportNode {
            known = [Patch.tempoParameter]
        } else if id == Patch.sceneNode {
            known = [Patch.sceneProgramParameter]
        } else if id == Patch.triggerNode {
            known = triggers.enumerated().map { index, trigger in
                ParameterInfo(id: UInt32(index), name: trigger.name, range: 0...1, defaultValue: 0, unit: .boolean)
            }
        } else {
            throw error(at: item, "target names no node '\(id)'", fix: "name a node of this patch, or transport")
        }
        guard let info = known.first(where: { $0.name == name }) else {
            throw error(at: item, "node '\(id)' has no parameter '\(name)'", fix: "use one of \(known.map(\.name).joined(separator: ", "))")
        }
        return info
    }

    func value(_ node: YAMLNode, within info: ParameterInfo) throws(PatchError) -> Float {
        if let named = try choice(node, of: info) { return named }
        let value = Float(try number(node, "a value of '\(info.name)'"))
        guard info.range.contains(value) else {
            throw error(at: node, "\(node.scalar?.string ?? "") is outside '\(info.name)' \(info.range.lowerBound)…\(info.range.upperBound)",
                        fix: "write a value in that range")
        }
        return value
    }

    /// The value of the choice `node` names when it is not a number and `info` has choices
    /// (`osc1 wave: saw`, `bypass: on`); nil for a number.
    /// - Throws: `PatchError` naming the choices when none has that label.
    func choice(_ node: YAMLNode, of info: ParameterInfo) throws(PatchError) -> Float? {
        guard !info.choices.isEmpty, let text = node.scalar?.string, Double(text) == nil else { return nil }
        guard let value = info.value(named: text) else {
            throw error(at: node, "'\(info.name)' has no choice '\(text)'",
                        fix: "use one of \(info.choices.map(\.label).joined(separator: ", ")), or a number")
        }
        return value
    }

    private func choice<Choice: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ type: Choice.Type, _ what: String)
        throws(PatchError) -> Choice where Choice.RawValue == String {
        let name = try string(node, "a \(what)")
        guard let value = Choice(rawValue: name) else {
            throw error(at: node, "unknown \(what) '\(name)'",
                        fix: "use " + Choice.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }
}
