internal import CLilv
import Hub

/// A plugin's presets: their control values (what a patch's `preset:` sets on its node's
/// parameters) and the plugin's own state some of them hold.
/// - Thread: control (the catalog's).
extension PluginCatalog {
    /// The control values of the preset `name` (label ignoring case, or URI) of plugin `uri`,
    /// by port symbol, mapping URIs through `map`.
    func presetValues(of uri: String, preset name: String, map: UnsafeMutablePointer<LV2_URID_Map>,
                      floatType: LV2_URID) throws(PluginRefusal) -> [String: Float] {
        try withPresetState(of: uri, preset: name, map: map) { state in
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
    }

    /// The preset `name`'s state as lilv's Turtle text when it holds some of the plugin's own
    /// (a sampler's sample) beside control values; `nil` when it holds control values only.
    func presetState(of uri: String, preset name: String, map: UnsafeMutablePointer<LV2_URID_Map>,
                     unmap: UnsafeMutablePointer<LV2_URID_Unmap>, subject: String) throws(PluginRefusal) -> String? {
        try withPresetState(of: uri, preset: name, map: map) { state in
            guard lilv_state_get_num_properties(state) > 0, let text = lilv_state_to_string(world, map, unmap, state, subject, nil)
            else { return nil }
            defer { lilv_free(text) }
            return String(cString: text)
        }
    }

    /// `body` with the state of the preset `name` of plugin `uri`, read from its bundle.
    private func withPresetState<Result>(of uri: String, preset name: String, map: UnsafeMutablePointer<LV2_URID_Map>,
                                         _ body: (OpaquePointer) -> Result) throws(PluginRefusal) -> Result {
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
        return body(state)
    }

    private struct PresetValues {
        let floatType: LV2_URID
        var values: [String: Float] = [:]
    }
}
