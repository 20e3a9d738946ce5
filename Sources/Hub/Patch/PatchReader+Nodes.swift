import Foundation
import RenderCore
import Yams

/// YAMLNode definitions: exactly one of the body keys, plus `parameters` and body-specific keys.
/// - Thread: any (a plain value).
extension PatchReader {
    static let bodyKeys = ["source", "processor", "instrument", "effect", "generator", "musicEffect", "plugin", "external",
                           "output", "input"]

    func node(id: NodeID, _ definition: YAMLNode) throws(PatchError) -> GraphNode {
        let fields = try mapping(definition, "node '\(id)'")
        let present = fields.keys.filter { Self.bodyKeys.contains($0.scalar?.string ?? "") }
        guard present.count == 1, let bodyKey = present.first, let kind = bodyKey.scalar?.string,
              let value = fields[bodyKey] else {
            throw error(at: present.dropFirst().first ?? definition,
                        "node '\(id)' needs exactly one of \(Self.bodyKeys.joined(separator: ", "))",
                        fix: "write e.g. `processor: transpose` or `instrument: Synth`")
        }
        var body: NodeBody
        var allowed = [kind, "parameters"]
        var presetValues: [String: Float] = [:]
        switch kind {
        case "source":
            body = .source(try selector(value))
        case "processor":
            let config = try processor(value, fields)
            allowed += Self.extraKeys(config)
            body = .processor(config)
        case "external":
            allowed += ["role", "clock", "clock offset", "audio"]
            var role = ExternalNode.Role.instrument
            if let roleNode = fields["role"] {
                guard let parsed = ExternalNode.Role(rawValue: try string(roleNode, "a role")) else {
                    throw error(at: roleNode, "unknown role '\(roleNode.scalar?.string ?? "")'", fix: "write instrument or processor")
                }
                role = parsed
            }
            let clock = try fields["clock"].flatMap { node throws(PatchError) in try clockLink(node) }
            let offset = try fields["clock offset"].map { node throws(PatchError) in try number(node, "the clock offset (ms)") } ?? 0
            if let node = fields["clock offset"], !(-100...100).contains(offset) {
                throw error(at: node, "clock offset \(node.scalar?.string ?? "") ms is outside -100…100", fix: "write the milliseconds to move the clock, e.g. -5")
            }
            let audio = try fields["audio"].map { node throws(PatchError) in try externalAudio(node, role: role) }
            body = .external(ExternalNode(port: try selector(value), role: role, clock: clock, clockOffset: offset, audio: audio))
        case "output":
            body = .output(try string(value, "an audio device name"))
        case "input":
            let device = try string(value, "a capture device name, or JACK ports (jack:CLIENT:PORT)")
            if device.hasPrefix("jack:") { _ = try selector(value) }
            body = .input(device)
        case "plugin":
            allowed += ["preset", "isolate"]
            var descriptor = try plugin(value)
            if let isolate = fields["isolate"] {
                guard let value = isolate.bool else {
                    throw error(at: isolate, "`isolate:` is true or false", fix: "write `isolate: true` to run the plugin in a process of its own")
                }
                descriptor.isolated = value
            }
            if let preset = fields["preset"] { (presetValues, descriptor.pluginState) = try self.preset(preset, of: descriptor) }
            body = .unit(descriptor)
        default:
            body = .unit(try unit(kind: kind, value))
        }
        try expectKeys(fields, allowed)
        if case .unit(var descriptor) = body, let plugin = descriptor.plugin, let given = fields["parameters"],
           let state = try fileState(given, of: plugin, node: id) {
            guard descriptor.pluginState == nil else {
                throw error(at: given, "node '\(id)' takes its files from its preset and from `parameters:`",
                            fix: "give them in one place: drop the files from `parameters:`, or the preset")
            }
            descriptor.pluginState = state
            body = .unit(descriptor)
        }
        let parameters = try fields["parameters"].map { node throws(PatchError) in try self.parameters(node, of: body, id: id) }
        return GraphNode(id: id, body: body, parameters: presetValues.merging(parameters ?? [:]) { _, own in own })
    }

    /// An external instrument's `audio:`: a selector on JACK's audio ports (`jack:CLIENT:PORT`).
    private func externalAudio(_ node: YAMLNode, role: ExternalNode.Role) throws(PatchError) -> String {
        guard role == .instrument else {
            throw error(at: node, "`audio:` is an instrument's sound, and this node is a processor",
                        fix: "drop `audio:`, or make it `role: instrument`")
        }
        let text = try string(node, "JACK audio ports (jack:CLIENT:PORT)")
        guard text.hasPrefix("jack:") else {
            throw error(at: node, "`audio:` names JACK audio ports, and '\(text)' is not one",
                        fix: "write e.g. `audio: \"jack:fluidsynth:*\"`; a sound card's input is an `input:` node")
        }
        _ = try selector(node)
        return text
    }

    /// An external node's `clock`: `send` (or `true`) or `follow`; `false` for none.
    private func clockLink(_ node: YAMLNode) throws(PatchError) -> ExternalNode.ClockLink? {
        if let value = node.bool { return value ? .send : nil }
        guard let link = ExternalNode.ClockLink(rawValue: node.scalar?.string ?? "") else {
            throw error(at: node, "clock '\(node.scalar?.string ?? "")' is neither send nor follow",
                        fix: "write `clock: send` to send it the transport's clock, `clock: follow` to follow its clock")
        }
        return link
    }

    /// An LV2 plugin node's descriptor: `plugin:` names it by URI or name (docs/plugins.md).
    private func plugin(_ value: YAMLNode) throws(PatchError) -> NodeDescriptor {
        let reference = try string(value, "an LV2 plugin's URI or name")
        do {
            return try registry.plugin(reference)
        } catch {
            throw self.error(at: value, error.problem, fix: error.fix)
        }
    }

    /// A plugin node's `preset:`: its control values, which its `parameters:` then override,
    /// and the plugin's own state when the preset holds some (a sampler's sample).
    private func preset(_ value: YAMLNode, of descriptor: NodeDescriptor) throws(PatchError) -> ([String: Float], String?) {
        let name = try string(value, "a preset's label or URI")
        do {
            return (try registry.presetValues(of: descriptor, preset: name), try registry.presetState(of: descriptor, preset: name))
        } catch {
            throw self.error(at: value, error.problem, fix: error.fix)
        }
    }

    private func unit(kind: String, _ value: YAMLNode) throws(PatchError) -> NodeDescriptor {
        let name = try string(value, "a node type name")
        // The audio input is declared by its device (`input:`), not by type name.
        let known = registry.types.filter { $0.descriptor != .audioInput }.map(\.descriptor.name).joined(separator: ", ")
        guard let type = registry.type(named: name) else {
            throw error(at: value, "unknown \(kind) '\(name)'", fix: known.isEmpty ? "no node types are registered" : "use one of \(known)")
        }
        guard type.descriptor != .audioInput else {
            throw error(at: value, "an audio input is declared by its capture device", fix: "write `input: hw:1,0` (`arecord -L` lists the devices)")
        }
        guard type.descriptor.kind.rawValue == kind else {
            throw error(at: value, "'\(name)' is \(Self.withArticle(type.descriptor.kind.rawValue)), not \(Self.withArticle(kind))",
                        fix: "write `\(type.descriptor.kind.rawValue): \(name)`")
        }
        return type.descriptor
    }

    private func selector(_ value: YAMLNode) throws(PatchError) -> PortSelector {
        let text = try string(value, "a port selector")
        do throws(SelectorSyntaxError) {
            return try PortSelector(parsing: text)
        } catch {
            let (line, column) = position(value)
            let quoted = value.scalar?.style == .doubleQuoted || value.scalar?.style == .singleQuoted ? 1 : 0
            throw PatchError(file: file, line: line, column: column + quoted + error.offset,
                             reason: error.reason, fix: error.fix)
        }
    }

    private func parameters(_ node: YAMLNode, of body: NodeBody, id: NodeID) throws(PatchError) -> [String: Float] {
        let known = registry.parameters(of: body)
        var values: [String: Float] = [:]
        let files = if case .unit(let descriptor) = body { descriptor.plugin?.files.map(\.name) ?? [] } else { [String]() }
        for (key, valueNode) in try mapping(node, "parameters") {
            let name = try string(key, "a parameter name")
            if files.contains(name) { continue }  // a plugin's file (`fileState`)
            let info = known?.first { $0.name == name }
            let value: Double
            if let info, let named = try choice(valueNode, of: info) {
                value = Double(named)
            } else {
                value = try number(valueNode, "parameter '\(name)'")
            }
            if let known {
                guard let info else {
                    let names = known.map(\.name) + files
                    throw error(at: key, "node '\(id)' has no parameter '\(name)'",
                                fix: names.isEmpty ? "remove it" : "use one of \(names.joined(separator: ", "))")
                }
                guard info.range.contains(Float(value)) else {
                    throw error(at: valueNode, "parameter '\(name)' = \(valueNode.scalar?.string ?? "") is outside "
                                    + "\(Self.format(info.range.lowerBound))…\(Self.format(info.range.upperBound))",
                                fix: "write a value in that range")
                }
            }
            values[name] = Float(value)
        }
        return values
    }

    /// The plugin's own state naming the files a plugin node's `parameters:` give
    /// (`sample: kick.wav`, relative to the patch's folder), as lilv reads a state in Turtle;
    /// nil when they give none.
    private func fileState(_ node: YAMLNode, of plugin: PluginIdentity, node id: NodeID) throws(PatchError) -> String? {
        let files = plugin.files
        var properties: [String] = []
        for (key, valueNode) in try mapping(node, "parameters") {
            let name = try string(key, "a parameter name")
            guard let file = files.first(where: { $0.name == name }) else { continue }
            let path = try existingFile(valueNode, "a file", of: "node '\(id)' parameter '\(name)'",
                                        fix: "give a file that exists, relative to this patch's folder")
            properties.append("<\(file.uri)> <\(URL(fileURLWithPath: path).absoluteString)>")
        }
        guard !properties.isEmpty else { return nil }
        return """
            <urn:midihub:plugin-state> a <http://lv2plug.in/ns/ext/presets#Preset> ;
                <http://lv2plug.in/ns/lv2core#appliesTo> <\(plugin.uri)> ;
                <http://lv2plug.in/ns/ext/state#state> [ \(properties.joined(separator: " ; ")) ] .

            """
    }

    private static func withArticle(_ word: String) -> String {
        ("aeiou".contains(word.first ?? "x") ? "an " : "a ") + word
    }

    private static func format(_ value: Float) -> String {
        Int(exactly: value).map(String.init) ?? String(value)
    }
}
