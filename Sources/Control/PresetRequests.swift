/// `presets.load` parameters: `{"node":"piano","preset":"Mellow"}` — a preset of the LV2
/// plugin node `node`, by label (ignoring case) or URI.
///
/// - Thread: any (a plain value).
public struct PresetLoad: Hashable, Sendable, Codable {
    public var node: String
    public var preset: String

    public init(node: String, preset: String) {
        self.node = node
        self.preset = preset
    }
}

/// `presets.save` parameters: `{"node":"amp","label":"Quiet room"}` — the node's sound saved
/// as a preset with that label.
///
/// - Thread: any (a plain value).
public struct PresetSave: Hashable, Sendable, Codable {
    public var node: String
    public var label: String

    public init(node: String, label: String) {
        self.node = node
        self.label = label
    }
}

/// `presets.save`'s answer: the preset saved, where LV2 hosts find it.
/// `{"node":"amp","plugin":"http://lv2plug.in/plugins/eg-amp","label":"Quiet room","uri":"file:///…/preset.ttl","bundle":"/home/me/.lv2/Simple_Amplifier_Quiet_room.preset.lv2"}`
///
/// - Thread: any (a plain value).
public struct PresetSummary: Hashable, Sendable, Codable {
    public var node: String
    /// The plugin's URI.
    public var plugin: String
    public var label: String
    public var uri: String
    /// The bundle's folder.
    public var bundle: String

    public init(node: String, plugin: String, label: String, uri: String, bundle: String) {
        (self.node, self.plugin, self.label, self.uri, self.bundle) = (node, plugin, label, uri, bundle)
    }
}
