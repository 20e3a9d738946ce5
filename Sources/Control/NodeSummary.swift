/// One node of the daemon's graph with its descriptor and parameters.
///
/// - Thread: any (a plain value).
public struct NodeSummary: Hashable, Sendable, Codable {
    /// The node's handle in requests (`nodes.remove`, `parameters.set`), unique in the daemon.
    public var id: String
    /// The display name from the descriptor, e.g. "midihub Synth".
    public var name: String
    /// `generator`, `instrument`, `effect`, `musicEffect` or `midiProcessor`.
    public var kind: String
    /// Four-character subtype code, e.g. "syn1".
    public var subtype: String
    /// Four-character manufacturer code, e.g. "mdhb".
    public var manufacturer: String
    /// "major.minor.patch".
    public var version: String
    /// For an external node: the ALSA or JACK port it stands for; `nil` for built-in nodes.
    public var port: String?
    /// For an LV2 plugin node: the plugin's URI.
    public var plugin: String?
    public var parameters: [ParameterSummary]
    /// For an external node on an ALSA port that stopped taking MIDI: messages waiting in its
    /// own queue now, and messages it lost since the daemon started; `nil` while it keeps up.
    public var receiver: ReceiverStatus?

    public init(
        id: String, name: String, kind: String, subtype: String, manufacturer: String, version: String,
        port: String? = nil, plugin: String? = nil, parameters: [ParameterSummary] = [], receiver: ReceiverStatus? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.subtype = subtype
        self.manufacturer = manufacturer
        self.version = version
        self.port = port
        self.plugin = plugin
        self.parameters = parameters
        self.receiver = receiver
    }
}

/// How an external node's receiver keeps up (`NodeSummary.receiver`).
///
/// - Thread: any (a plain value).
public struct ReceiverStatus: Hashable, Sendable, Codable {
    /// Messages waiting for it to read again.
    public var waiting: Int
    /// Messages lost since the daemon started (its queue was full).
    public var dropped: Int

    public init(waiting: Int, dropped: Int) {
        self.waiting = waiting
        self.dropped = dropped
    }
}

/// What to create for `nodes.add` and `nodes.replace`.
///
/// - Thread: any (a plain value).
public struct NodeSpec: Hashable, Sendable, Codable {
    /// A node type the daemon knows, e.g. `synth`, `transpose`, `arpeggiator`,
    /// `external-instrument` / `external-processor` together with `port`, or `plugin`
    /// together with `plugin`.
    public var type: String
    /// The id wanted for the new node; the daemon picks one when `nil`.
    public var id: String?
    /// The ALSA or JACK port of an external node.
    public var port: String?
    /// The LV2 plugin of a `plugin` node: its URI, its name, or a part of either that names one.
    public var plugin: String?
    /// Initial parameter values by parameter name.
    public var parameters: [String: Double]?

    public init(type: String, id: String? = nil, port: String? = nil, plugin: String? = nil, parameters: [String: Double]? = nil) {
        self.type = type
        self.id = id
        self.port = port
        self.plugin = plugin
        self.parameters = parameters
    }
}
