/// One controller mapping as `mappings.list` shows it (see docs/mappings.md):
/// `{"control":"cc 74","channel":1,"mode":"absolute","pickup":"jump","pass":false,
///   "targets":[{"node":"synth","parameter":"brightness","low":-36,"high":36,"curve":"linear","invert":false,"value":0}]}`.
///
/// - Thread: any (a plain value).
public struct MappingSummary: Hashable, Sendable, Codable {
    /// What the controller sends, as a patch writes it: `cc 74`, `cc14 16`, `nrpn 1000`, `note 36`.
    public var control: String
    /// 1…16; absent: any channel.
    public var channel: Int?
    /// The source node whose ports it listens to; absent: any port.
    public var from: String?
    /// `absolute`, `relative`, `velocity`, `momentary`, `toggle`, `latch` or `trigger`.
    public var mode: String
    /// For `relative`: `twos-complement`, `sign-magnitude` or `offset-64`.
    public var encoding: String?
    /// `jump`, `pickup` or `scaled`.
    public var pickup: String
    /// Whether the messages also go on into the graph.
    public var pass: Bool
    public var targets: [MappingTargetSummary]

    public init(control: String, channel: Int? = nil, from: String? = nil, mode: String, encoding: String? = nil,
                pickup: String, pass: Bool, targets: [MappingTargetSummary]) {
        self.control = control
        self.channel = channel
        self.from = from
        self.mode = mode
        self.encoding = encoding
        self.pickup = pickup
        self.pass = pass
        self.targets = targets
    }
}

/// A parameter a mapping moves, its range and curve, and its current value.
///
/// - Thread: any (a plain value).
public struct MappingTargetSummary: Hashable, Sendable, Codable {
    public var node: String
    public var parameter: String
    public var low: Double
    public var high: Double
    public var curve: String
    public var invert: Bool
    public var steps: Int?
    public var values: [Double]?
    /// The parameter's value now; absent when its node is gone.
    public var value: Double?

    public init(node: String, parameter: String, low: Double, high: Double, curve: String, invert: Bool,
                steps: Int? = nil, values: [Double]? = nil, value: Double? = nil) {
        self.node = node
        self.parameter = parameter
        self.low = low
        self.high = high
        self.curve = curve
        self.invert = invert
        self.steps = steps
        self.values = values
        self.value = value
    }
}

/// `mappings.set`: the whole list, as a patch's `mappings:` section writes it (YAML or JSON text).
///
/// - Thread: any (a plain value).
public struct MappingList: Hashable, Sendable, Codable {
    public var text: String

    public init(text: String) {
        self.text = text
    }
}

/// `learn`: bind the next control the user moves to this parameter.
///
/// - Thread: any (a plain value).
public struct LearnRequest: Hashable, Sendable, Codable {
    public var node: String
    public var parameter: String
    /// How long to wait for a control to move, 1…600 seconds; default 30.
    public var seconds: Double?

    public init(node: String, parameter: String, seconds: Double? = nil) {
        self.node = node
        self.parameter = parameter
        self.seconds = seconds
    }
}

/// Why learning ended without a mapping.
public enum LearnEnding: String, Hashable, Sendable, Codable {
    case timedOut = "timed-out"
    case cancelled
}

/// A scene as `scenes.list` shows it: `{"name":"verse","program":0,"current":true,"values":[…]}`.
///
/// - Thread: any (a plain value).
public struct SceneSummary: Hashable, Sendable, Codable {
    public var name: String
    /// The program (0…127) whose change selects it through a mapping to `scene.program`.
    public var program: Int?
    /// Whether it is the scene switched to last.
    public var current: Bool
    /// The values it sets, each as `parameters.set` takes it.
    public var values: [ParameterAssignment]
    /// The patch file it loads instead (absolute, on the daemon's machine).
    public var patch: String?

    public init(name: String, program: Int? = nil, current: Bool, values: [ParameterAssignment], patch: String? = nil) {
        self.name = name
        self.program = program
        self.current = current
        self.values = values
        self.patch = patch
    }
}

/// `scenes.switch`: `{"scene":"chorus"}`.
///
/// - Thread: any (a plain value).
public struct SceneReference: Hashable, Sendable, Codable {
    public var scene: String

    public init(scene: String) {
        self.scene = scene
    }
}

/// A trigger as `triggers.list` shows it: `{"name":"panic","action":"all notes off","state":"normal"}`.
///
/// - Thread: any (a plain value).
public struct TriggerSummary: Hashable, Sendable, Codable {
    public var name: String
    /// What it does, in words: `all notes off`, `scene chorus`, `send B0 7B 00 to "X"`.
    public var action: String
    /// `normal`, `selected` (its scene is current), `disabled` (cannot fire now) or
    /// `alternate` (primed: tap tempo between taps).
    public var state: String

    public init(name: String, action: String, state: String) {
        self.name = name
        self.action = action
        self.state = state
    }
}

/// `triggers.fire`: `{"trigger":"panic"}`.
///
/// - Thread: any (a plain value).
public struct TriggerReference: Hashable, Sendable, Codable {
    public var trigger: String

    public init(trigger: String) {
        self.trigger = trigger
    }
}

/// A widget as `widgets.list` shows it: what a remote draws and the value it shows now.
/// `{"kind":"slider","title":"Filter","target":"synth.brightness","min":-48,"max":48,"unit":"semitones","value":0}`.
///
/// - Thread: any (a plain value).
public struct WidgetSummary: Hashable, Sendable, Codable {
    /// `slider`, `knob`, `switch`, `momentary`, `button`, `label` or `selector`.
    public var kind: String
    /// The caption a remote shows.
    public var title: String
    /// `NODE.PARAMETER`, `trigger.NAME` (a button) or `scene` (a selector).
    public var target: String
    public var min: Double?
    public var max: Double?
    public var unit: String?
    /// The parameter's value now; absent for a button and a selector, and when the node is gone.
    public var value: Double?
    /// A button's trigger state (`normal`, `selected`, `disabled`, `alternate`).
    public var state: String?
    /// A selector's choices and the one chosen.
    public var options: [String]?
    public var selected: String?

    public init(kind: String, title: String, target: String, min: Double? = nil, max: Double? = nil, unit: String? = nil,
                value: Double? = nil, state: String? = nil, options: [String]? = nil, selected: String? = nil) {
        self.kind = kind
        self.title = title
        self.target = target
        self.min = min
        self.max = max
        self.unit = unit
        self.value = value
        self.state = state
        self.options = options
        self.selected = selected
    }
}
