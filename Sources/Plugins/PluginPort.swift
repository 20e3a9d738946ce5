/// One port of an LV2 plugin, as `midihub plugins info` shows it.
/// - Thread: any (a plain value).
public struct PluginPort: Codable, Equatable, Sendable {
    public enum Direction: String, Codable, Sendable {
        case input, output
    }

    public enum PortType: String, Codable, Sendable {
        /// Audio samples (`lv2:AudioPort`).
        case audio
        /// One value a block (`lv2:ControlPort`): a parameter, or a reading.
        case control
        /// Events that carry MIDI (an atom or event port that supports `midi:MidiEvent`).
        case midi
        /// Events that carry no MIDI (atom messages: a sampler's file, time).
        case atom
        /// Control voltage: audio-rate values (`lv2:CVPort`).
        case cv
        case other
    }

    /// A named value of the port (a scale point: `Sine` = 0).
    public struct Choice: Codable, Equatable, Sendable {
        public var label: String
        public var value: Float
    }

    public var index: Int
    public var symbol: String
    public var name: String
    public var direction: Direction
    public var type: PortType
    /// A control port's range and default (`nil` where the bundle gives none).
    public var minimum: Float?
    public var maximum: Float?
    public var defaultValue: Float?
    /// Its unit's symbol (`dB`, `Hz`, `ms`), or the unit's name where the bundle has no symbol.
    public var unit: String?
    /// `integer`, `toggle`, `enumeration`, `logarithmic`.
    public var properties: [String]
    /// Its named values (an enumeration's choices, a toggle's off and on).
    public var choices: [Choice]

    private enum CodingKeys: String, CodingKey {
        case index, symbol, name, direction, type, minimum, maximum, defaultValue = "default", unit, properties, choices
    }

    /// Encodes every key, absent values as `null` (as the control protocol's objects do).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(symbol, forKey: .symbol)
        try container.encode(name, forKey: .name)
        try container.encode(direction, forKey: .direction)
        try container.encode(type, forKey: .type)
        try container.encode(minimum, forKey: .minimum)
        try container.encode(maximum, forKey: .maximum)
        try container.encode(defaultValue, forKey: .defaultValue)
        try container.encode(unit, forKey: .unit)
        try container.encode(properties, forKey: .properties)
        try container.encode(choices, forKey: .choices)
    }
}

/// A preset of an LV2 plugin, as installed (its bundle's, or one saved in `~/.lv2`).
/// - Thread: any (a plain value).
public struct PluginPreset: Codable, Equatable, Sendable {
    public var label: String
    public var uri: String
}

/// Everything `midihub plugins info` shows of one plugin.
/// - Thread: any (a plain value).
public struct PluginInfo: Codable, Equatable, Sendable {
    public var plugin: PluginSummary
    public var ports: [PluginPort]
    public var presets: [PluginPreset]
    /// The features it can use when the host offers them.
    public var optionalFeatures: [String]
    /// The files it takes by `patch:Set` (eg-sampler's sample), set by name with `parameters.set`.
    public var files: [PluginFile]

    /// A file property (`PluginFileProperty`) as listed.
    public struct PluginFile: Codable, Equatable, Sendable {
        public var name: String
        public var uri: String
    }
}
