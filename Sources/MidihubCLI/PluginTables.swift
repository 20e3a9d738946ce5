import Plugins

/// The text `midihub plugins` and `midihub plugins info` print.
/// - Thread: any.
enum PluginTables {
    static func list(_ plugins: [PluginSummary]) -> String {
        let header = ["NAME", "KIND", "AUDIO", "MIDI", "CONTROLS", "PRESETS", "URI"]
        let rows = plugins.map { plugin in
            [plugin.name, plugin.kind.rawValue, "\(plugin.audioInputs)/\(plugin.audioOutputs)",
             "\(plugin.midiInputs)/\(plugin.midiOutputs)", "\(plugin.controlInputs)", "\(plugin.presets)", plugin.uri]
        }
        let table = TextTable(header: header, rows: rows)
        var lines = [table.line(header)]
        for (plugin, row) in zip(plugins, rows) {
            lines.append(table.line(row))
            if !plugin.missing.isEmpty { lines.append("  cannot host: requires " + plugin.missing.joined(separator: ", ")) }
        }
        return lines.joined(separator: "\n")
    }

    static func info(_ info: PluginInfo) -> String {
        let plugin = info.plugin
        var lines = ["\(plugin.name) (\(plugin.kind.rawValue); \(plugin.lv2Class))", "uri: \(plugin.uri)"]
        lines.append("requires: " + (plugin.requires.isEmpty ? "nothing" : plugin.requires.joined(separator: ", ")))
        if !info.optionalFeatures.isEmpty { lines.append("uses if offered: " + info.optionalFeatures.joined(separator: ", ")) }
        lines.append(plugin.refusal.map { "cannot host: \($0.problem) (fix: \($0.fix))" }
            ?? "can host: every feature it requires is provided")
        lines.append("ports:")
        lines += info.ports.map { "  " + describe($0) }
        if !info.files.isEmpty {
            lines.append("files:")
            lines += info.files.map { "  \($0.name): a file's path (\($0.uri))" }
        }
        lines.append("presets: " + (info.presets.isEmpty ? "none" : "\(info.presets.count)"))
        lines += info.presets.map { "  \($0.label)  \($0.uri)" }
        return lines.joined(separator: "\n")
    }

    /// `3 gain: control in, -90…24 dB, default 0 (Gain)`.
    static func describe(_ port: PluginPort) -> String {
        var text = "\(port.index) \(port.symbol): \(port.type.rawValue) \(port.direction == .input ? "in" : "out")"
        if let minimum = port.minimum, let maximum = port.maximum {
            text += ", \(number(minimum))…\(number(maximum))" + (port.unit.map { " \($0)" } ?? "")
        } else if let unit = port.unit {
            text += ", \(unit)"
        }
        if let value = port.defaultValue { text += ", default \(number(value))" }
        let properties = port.properties.filter { $0 != "enumeration" || port.choices.isEmpty }
        if !properties.isEmpty { text += ", " + properties.joined(separator: ", ") }
        if !port.choices.isEmpty { text += ", choices " + port.choices.map { "\($0.label)=\(number($0.value))" }.joined(separator: " ") }
        return text + (port.name.isEmpty || port.name == port.symbol ? "" : " (\(port.name))")
    }

    private static func number(_ value: Float) -> String {
        value.rounded() == value && abs(value) < 1e7 ? String(Int(value)) : String(value)
    }
}
