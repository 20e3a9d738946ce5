/// A four-character code (`'aumu'`-style) packed big-endian into 32 bits.
///
/// - Thread: any (a plain value).
public struct FourCharCode: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public var rawValue: UInt32

    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Packs the first four ASCII bytes of `text`; shorter text is padded with spaces.
    public init(_ text: String) {
        var bytes = Array(text.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        rawValue = bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    public init(stringLiteral value: String) { self.init(value) }

    /// `text` as a code when it is at most four printable ASCII characters (padded with
    /// spaces, as `init(_:)`), else nil: what a file names reads back as it was written.
    public init?(validating text: String) {
        guard text.utf8.count <= 4, text.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        self.init(text)
    }

    public var description: String {
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * $0)) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// What a node does with MIDI and audio (the Inter-App Audio component types).
///
/// - Thread: any (a plain value).
public enum NodeKind: String, Hashable, Sendable, CaseIterable {
    /// No input, produces audio (`aurg`).
    case generator
    /// MIDI in, audio out (`auri`).
    case instrument
    /// Audio in, audio out (`aurx`).
    case effect
    /// MIDI and audio in, audio out (`aurm`).
    case musicEffect
    /// MIDI in, MIDI out.
    case midiProcessor

    /// The Inter-App Audio four-character type code.
    public var code: FourCharCode {
        switch self {
        case .generator: "aurg"
        case .instrument: "auri"
        case .effect: "aurx"
        case .musicEffect: "aurm"
        case .midiProcessor: "aumi"
        }
    }
}

/// Identifies a node type: kind, subtype, manufacturer, display name and version.
///
/// - Thread: any (a plain value).
public struct NodeDescriptor: Hashable, Sendable {
    public var kind: NodeKind
    public var subtype: FourCharCode
    public var manufacturer: FourCharCode
    public var name: String
    /// Packed as `major << 16 | minor << 8 | patch`.
    public var version: UInt32
    /// The LV2 plugin a plugin node hosts (`nil` for the built-in types).
    public var plugin: PluginIdentity?
    /// A plugin node's own state (beyond its control values, which are its parameters: a
    /// sampler's sample file) as lilv writes a state in Turtle, which a new instance restores
    /// before it first runs; `nil`: the plugin's default state. Part of what the node is: a
    /// node given another state is a new instance.
    public var pluginState: String?
    /// Whether a plugin node runs its plugin in a child process of its own (`isolate:`,
    /// docs/plugins.md): `nil` takes the daemon's default. Part of what the node is, like
    /// `pluginState`.
    public var isolated: Bool?

    public init(kind: NodeKind, subtype: FourCharCode, manufacturer: FourCharCode, name: String, version: UInt32,
                plugin: PluginIdentity? = nil, pluginState: String? = nil, isolated: Bool? = nil) {
        self.kind = kind
        self.subtype = subtype
        self.manufacturer = manufacturer
        self.name = name
        self.version = version
        self.plugin = plugin
        self.pluginState = pluginState
        self.isolated = isolated
    }
}

/// An LV2 plugin as a node type: its URI and the parameters and readings its control ports
/// give, carried by the descriptor so that a graph node hosting it describes itself (no
/// registry entry). Two identities are the same plugin when their URIs are.
///
/// - Thread: any (immutable).
public final class PluginIdentity: Hashable, Sendable {
    public let uri: String
    /// Its control inputs, by port index (`ParameterInfo.id`), named by their symbols.
    public let parameters: [ParameterInfo]
    /// Its control outputs, by port index (`OutputInfo.id`).
    public let outputs: [OutputInfo]
    /// The files it takes by `patch:Set` (`patch:writable` properties whose range is
    /// `atom:Path`: eg-sampler's sample), set by name like a parameter.
    public let files: [PluginFileProperty]

    public init(uri: String, parameters: [ParameterInfo], outputs: [OutputInfo], files: [PluginFileProperty] = []) {
        self.uri = uri
        self.parameters = parameters
        self.outputs = outputs
        self.files = files
    }

    public static func == (lhs: PluginIdentity, rhs: PluginIdentity) -> Bool { lhs.uri == rhs.uri }

    public func hash(into hasher: inout Hasher) { hasher.combine(uri) }
}

/// A file an LV2 plugin takes by `patch:Set` (a `patch:writable` property whose range is
/// `atom:Path`): its property URI and the name it is set by (its label).
///
/// - Thread: any (a plain value).
public struct PluginFileProperty: Hashable, Sendable {
    public let uri: String
    public let name: String

    public init(uri: String, name: String) {
        self.uri = uri
        self.name = name
    }
}

extension NodeDescriptor {
    /// The subtype and manufacturer code of every LV2 plugin node (`plugin` tells them apart).
    /// - Thread: any.
    public static let pluginCode: FourCharCode = "lv2 "

    /// A node hosting the LV2 plugin `plugin`, of `kind`, called `name`.
    /// - Thread: any.
    public static func plugin(_ plugin: PluginIdentity, kind: NodeKind, name: String) -> NodeDescriptor {
        NodeDescriptor(kind: kind, subtype: pluginCode, manufacturer: pluginCode, name: name, version: 0, plugin: plugin)
    }
}

extension NodeDescriptor {
    /// The audio input generator (AudioHost's `AudioInputNode`), named here because the
    /// graph knows it: a patch declares one by its capture device (`input: hw:1,0`).
    public static let audioInput = NodeDescriptor(kind: .generator, subtype: "ainp", manufacturer: "mhub",
                                                  name: "audio input", version: 0x01_00_00)
}
