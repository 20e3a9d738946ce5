import Foundation
import MIDICore

/// `triggers:` — a patch's own triggers (docs/mappings.md#triggers).
/// - Thread: any (a plain value).
extension PatchReader {
    /// Reads the patch's triggers; `scenes` are the names a scene trigger may switch to,
    /// `nodes` the patch's (a bypass trigger names an effect).
    func triggers(_ value: YAMLNode, scenes: [String], nodes: [GraphNode]) throws(PatchError) -> [Trigger] {
        var triggers: [Trigger] = []
        for (nameNode, definition) in try mapping(value, "triggers") {
            let name = try string(nameNode, "a trigger name")
            guard !(Trigger.system + triggers).contains(where: { $0.name == name }) else {
                throw error(at: nameNode, "trigger '\(name)' is defined twice or is one of the hub's own",
                            fix: "give it another name (the hub's own: \(Trigger.system.map(\.name).joined(separator: ", ")))")
            }
            let fields = try mapping(definition, "a trigger")
            try expectKeys(fields, ["send", "to", "scene", "play", "bypass"])
            if let bypassNode = fields["bypass"] {
                triggers.append(Trigger(name: name, action: .bypass(node: try bypassedEffect(bypassNode, nodes: nodes, trigger: name))))
            } else if let playNode = fields["play"] {
                let path = try existingFile(playNode, "a sequence file", of: "trigger '\(name)'", fix: "give a .mid or .song file, relative to the patch's folder")
                triggers.append(Trigger(name: name, action: .play(path: path)))
            } else if let sceneNode = fields["scene"] {
                let scene = try string(sceneNode, "a scene name")
                guard scenes.contains(scene) else {
                    throw error(at: sceneNode, "trigger '\(name)': no scene '\(scene)'",
                                fix: scenes.isEmpty ? "add scenes: to the patch" : "use one of \(scenes.joined(separator: ", "))")
                }
                triggers.append(Trigger(name: name, action: .scene(scene)))
            } else if let sendNode = fields["send"], let toNode = fields["to"] {
                let port = try string(toNode, "a port selector")
                do {
                    _ = try PortSelector(parsing: port)
                } catch {
                    throw self.error(at: toNode, "trigger '\(name)': \(error.reason)", fix: error.fix)
                }
                triggers.append(Trigger(name: name, action: .send(port: port, bytes: try messageBytes(sendNode))))
            } else {
                throw error(at: definition, "trigger '\(name)' does nothing",
                            fix: "give it `scene: NAME`, `play: FILE`, `bypass: EFFECT`, or `send: \"B0 7B 00\"` with `to: PORT`")
            }
        }
        return triggers
    }

    /// A `bypass` trigger's node: an effect of the patch.
    private func bypassedEffect(_ node: YAMLNode, nodes: [GraphNode], trigger name: String) throws(PatchError) -> NodeID {
        let id = try string(node, "an effect's name")
        let effects = nodes.filter(\.canBypass).map(\.id)
        guard let target = nodes.first(where: { $0.id == id }), target.canBypass else {
            let what = nodes.first { $0.id == id }.map { "'\(id)' (\($0.body.kindName)) is not an effect" }
            throw error(at: node, "trigger '\(name)': \(what ?? "no node '\(id)'")",
                        fix: effects.isEmpty ? "bypass takes an effect of the patch; add one" : "bypass one of \(effects.joined(separator: ", "))")
        }
        return id
    }

    /// A file a trigger or a scene names (`what`, e.g. "a sequence file"): relative to the
    /// patch's folder, and there (it is read when used, off the MIDI path).
    func existingFile(_ node: YAMLNode, _ what: String, of owner: String, fix: String) throws(PatchError) -> String {
        let text = try string(node, what)
        let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        let path = text.hasPrefix("/") ? text : folder.appendingPathComponent(text).standardizedFileURL.path
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw error(at: node, "\(owner): no \(what.replacingOccurrences(of: "a ", with: "", options: .anchored)) \(path)", fix: fix)
        }
        return path
    }

    /// Hex bytes of complete MIDI messages: `"B0 7B 00 C0 05"`.
    private func messageBytes(_ node: YAMLNode) throws(PatchError) -> [UInt8] {
        let text = try string(node, "MIDI bytes in hex")
        var bytes: [UInt8] = []
        for word in text.split(separator: " ") {
            guard word.count == 2, let byte = UInt8(word, radix: 16) else {
                throw error(at: node, "'\(word)' is not a byte in hex", fix: "write bytes as two hex digits each, like \"B0 7B 00\"")
            }
            bytes.append(byte)
        }
        var parser = MIDIParser()
        let messages = parser.parse(bytes)
        guard !messages.isEmpty, messages.flatMap(\.bytes).count == bytes.count else {
            throw error(at: node, "'\(text)' is not whole MIDI messages", fix: "give each message its status byte and all its data bytes")
        }
        return bytes
    }
}
