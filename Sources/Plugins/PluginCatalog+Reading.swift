internal import CLilv
import Hub

/// What the catalog reads of each plugin: its summary from its ports and features, a
/// port's description, the presets.
/// - Thread: control (the catalog's).
extension PluginCatalog {
    /// The most ports a plugin may declare: lilv makes an array as long as the highest
    /// `lv2:index` it reads, so a bundle's `lv2:index 4294967295` would have it allocate and
    /// clear tens of gigabytes.
    static let portLimit = 4096

    /// Why the plugin's ports cannot be read safely (an index that is no whole number below
    /// `portLimit`), or nil. Asks the plugin's own data, which lilv loads for its name, not
    /// lilv's port list.
    static func unreadablePorts(of plugin: OpaquePointer, world: OpaquePointer) -> PluginRefusal? {
        lilv_plugin_get_name(plugin).map { lilv_node_free($0) }
        let uri = LilvText.string(lilv_plugin_get_uri(plugin)) ?? "?"
        let port = lilv_new_uri(world, LV2Vocabulary.core + "port"), index = lilv_new_uri(world, LV2Vocabulary.core + "index")
        defer { [port, index].forEach { lilv_node_free($0) } }
        let ports = LilvText.copies(lilv_world_find_nodes(world, lilv_plugin_get_uri(plugin), port, nil))
        defer { ports.forEach { lilv_node_free($0) } }
        for declared in ports {
            guard let value = lilv_world_get(world, declared, index, nil) else { continue }
            defer { lilv_node_free(value) }
            let text = LilvText.string(value) ?? "?"
            guard lilv_node_is_int(value), text.count <= 5, (0..<portLimit).contains(Int(lilv_node_as_int(value))) else {
                return PluginRefusal("LV2 plugin '\(uri)' declares a port index \(text.prefix(24)), beyond \(portLimit - 1); it is left out",
                                     fix: "fix or remove its bundle (lv2info \(uri) shows where it is)")
            }
        }
        return nil
    }

    static func summary(of plugin: OpaquePointer, terms: Terms, world: OpaquePointer) -> PluginSummary {
        var counts = (audioIn: 0, audioOut: 0, midiIn: 0, midiOut: 0, controlIn: 0, controlOut: 0)
        for index in 0..<lilv_plugin_get_num_ports(plugin) {
            guard let port = lilv_plugin_get_port_by_index(plugin, index) else { continue }
            let input = lilv_port_is_a(plugin, port, terms.inputPort)
            switch portType(port, of: plugin, terms: terms) {
            case .audio: if input { counts.audioIn += 1 } else { counts.audioOut += 1 }
            case .midi: if input { counts.midiIn += 1 } else { counts.midiOut += 1 }
            case .control: if input { counts.controlIn += 1 } else { counts.controlOut += 1 }
            case .atom, .cv, .other: break
            }
        }
        let requires = LilvText.uris(lilv_plugin_get_required_features(plugin)).sorted()  // lilv's order varies
        let pluginClass = lilv_plugin_get_class(plugin).flatMap { LilvText.string(lilv_plugin_class_get_label($0)) }
        let presets = lilv_plugin_get_related(plugin, terms.preset)
        defer { lilv_nodes_free(presets) }
        return PluginSummary(
            uri: LilvText.string(lilv_plugin_get_uri(plugin)) ?? "",
            name: lilv_plugin_get_name(plugin).map { node in
                defer { lilv_node_free(node) }
                return LilvText.string(node) ?? ""
            } ?? "",
            kind: PluginSummary.kind(audioInputs: counts.audioIn, audioOutputs: counts.audioOut,
                                     midiInputs: counts.midiIn, midiOutputs: counts.midiOut),
            lv2Class: pluginClass ?? "Plugin",
            audioInputs: counts.audioIn, audioOutputs: counts.audioOut, midiInputs: counts.midiIn, midiOutputs: counts.midiOut,
            controlInputs: counts.controlIn, controlOutputs: counts.controlOut,
            presets: presets.map { Int(lilv_nodes_size($0)) } ?? 0,
            requires: requires.map(LV2Vocabulary.shortName),
            missing: HostFeatures.missing(from: requires).map(LV2Vocabulary.shortName))
    }

    static func portType(_ port: OpaquePointer, of plugin: OpaquePointer, terms: Terms) -> PluginPort.PortType {
        if lilv_port_is_a(plugin, port, terms.audioPort) { return .audio }
        if lilv_port_is_a(plugin, port, terms.controlPort) { return .control }
        if lilv_port_is_a(plugin, port, terms.cvPort) { return .cv }
        if lilv_port_is_a(plugin, port, terms.atomPort) || lilv_port_is_a(plugin, port, terms.eventPort) {
            return lilv_port_supports_event(plugin, port, terms.midiEvent) ? .midi : .atom
        }
        return .other
    }

    static func port(_ port: OpaquePointer, index: Int, of plugin: OpaquePointer, terms: Terms, world: OpaquePointer) -> PluginPort {
        var defaultNode: OpaquePointer?, minimumNode: OpaquePointer?, maximumNode: OpaquePointer?
        lilv_port_get_range(plugin, port, &defaultNode, &minimumNode, &maximumNode)
        defer { [defaultNode, minimumNode, maximumNode].forEach { lilv_node_free($0) } }
        let properties = [(terms.integer, "integer"), (terms.toggled, "toggle"), (terms.enumeration, "enumeration"),
                          (terms.logarithmic, "logarithmic"), (terms.sampleRate, "sample-rate")]
            .filter { lilv_port_has_property(plugin, port, $0.0) }.map(\.1)
        let type = portType(port, of: plugin, terms: terms)
        var choices = scalePoints(of: port, plugin: plugin, terms: terms, world: world)
        if choices.isEmpty, properties.contains("toggle") { choices = [.init(label: "off", value: 0), .init(label: "on", value: 1)] }
        return PluginPort(
            index: index, symbol: LilvText.string(lilv_port_get_symbol(plugin, port)) ?? "\(index)",
            name: lilv_port_get_name(plugin, port).map { node in
                defer { lilv_node_free(node) }
                return LilvText.string(node) ?? ""
            } ?? "",
            direction: lilv_port_is_a(plugin, port, terms.inputPort) ? .input : .output, type: type,
            minimum: LilvText.number(minimumNode), maximum: LilvText.number(maximumNode), defaultValue: LilvText.number(defaultNode),
            unit: unit(of: port, plugin: plugin, terms: terms, world: world), properties: properties, choices: choices)
    }

    /// The port's unit: its symbol (`dB`), else the last part of its URI (`db`).
    private static func unit(of port: OpaquePointer, plugin: OpaquePointer, terms: Terms, world: OpaquePointer) -> String? {
        guard let unit = lilv_port_get(plugin, port, terms.unit) else { return nil }
        defer { lilv_node_free(unit) }
        if let symbol = lilv_world_get(world, unit, terms.unitSymbol, nil) {
            defer { lilv_node_free(symbol) }
            if let text = LilvText.string(symbol) { return text }
        }
        guard lilv_node_is_uri(unit), let uri = LilvText.string(unit) else { return nil }
        return uri.split(separator: "#").last.map(String.init)
    }

    /// The port's scale points (`lv2:scalePoint`), read point by point: one without a label
    /// or a value is left out (lilv's own reader asserts when none is whole, and leaks).
    private static func scalePoints(of port: OpaquePointer, plugin: OpaquePointer, terms: Terms, world: OpaquePointer)
        -> [PluginPort.Choice] {
        LilvText.copies(lilv_port_get_value(plugin, port, terms.scalePoint)).compactMap { point -> PluginPort.Choice? in
            defer { lilv_node_free(point) }
            let label = lilv_world_get(world, point, terms.label, nil), value = lilv_world_get(world, point, terms.value, nil)
            defer { [label, value].forEach { lilv_node_free($0) } }
            guard let text = LilvText.string(label), let number = LilvText.number(value) else { return nil }
            return PluginPort.Choice(label: text, value: number)
        }.sorted { $0.value < $1.value }
    }

    /// The plugin's presets, each with its label (its resource loaded for it), by label.
    static func presets(of plugin: OpaquePointer, terms: Terms, world: OpaquePointer) -> [PluginPreset] {
        LilvText.copies(lilv_plugin_get_related(plugin, terms.preset)).compactMap { preset -> PluginPreset? in
            defer { lilv_node_free(preset) }
            guard let uri = LilvText.string(preset) else { return nil }
            lilv_world_load_resource(world, preset)
            let label = lilv_world_get(world, preset, terms.label, nil)
            defer { lilv_node_free(label) }
            return PluginPreset(label: LilvText.string(label) ?? uri, uri: uri)
        }.sorted { ($0.label.lowercased(), $0.uri) < ($1.label.lowercased(), $1.uri) }
    }
}
