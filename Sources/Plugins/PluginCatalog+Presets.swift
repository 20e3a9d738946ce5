internal import CLilv
import Hub

/// A plugin's presets as control values: what a patch's `preset:` sets on its node.
/// - Thread: control (the catalog's).
extension PluginCatalog {
    /// The control values of the preset `name` (label ignoring case, or URI) of plugin `uri`,
    /// by port symbol, mapping URIs through `map`.
    func presetValues(of uri: String, preset name: String, map: UnsafeMutablePointer<LV2_URID_Map>,
                      floatType: LV2_URID) throws(PluginRefusal) -> [String: Float] {
        guard let plugin = handles[uri] else { throw PluginLookupError.unknown(uri).refusal }
        let presets = Self.presets(of: plugin, terms: terms, world: world)
        let lowered = name.lowercased()
        guard let preset = presets.first(where: { $0.uri == name }) ?? presets.first(where: { $0.label.lowercased() == lowered }) else {
            let labels = presets.prefix(8).map { "'\($0.label)'" }.joined(separator: ", ")
            let pluginName = plugins.first { $0.uri == uri }?.name ?? uri
            throw PluginRefusal("LV2 plugin '\(pluginName)' has no preset '\(name)'",
                                fix: presets.isEmpty ? "it has no presets; set its parameters instead"
                                    : "use one of \(labels)\(presets.count > 8 ? ", …" : "") ('midihub plugins info' lists them)")
        }
        let node = lilv_new_uri(world, preset.uri)
        defer { lilv_node_free(node) }
        guard let state = lilv_state_new_from_world(world, map, node) else {
            throw PluginRefusal("the preset '\(preset.label)' of '\(uri)' cannot be read", fix: "check its bundle with 'lv2info \(uri)'")
        }
        defer { lilv_state_free(state) }
        var collected = PresetValues(floatType: floatType)
        withUnsafeMutablePointer(to: &collected) { pointer in
            lilv_state_emit_port_values(state, { symbol, context, value, size, type in
                guard let symbol, let context, let value else { return }
                let values = context.assumingMemoryBound(to: PresetValues.self)
                guard type == values.pointee.floatType, size == 4 else { return }
                values.pointee.values[String(cString: symbol)] = value.load(as: Float.self)
            }, pointer)
        }
        return collected.values
    }

    private struct PresetValues {
        let floatType: LV2_URID
        var values: [String: Float] = [:]
    }
}
