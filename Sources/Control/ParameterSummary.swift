/// One named value of a node: an input (written by widgets, mappings, `parameters.set`)
/// or an output (meters, voice count; read only).
///
/// - Thread: any (a plain value).
public struct ParameterSummary: Hashable, Sendable, Codable {
    public enum Direction: String, Hashable, Sendable, Codable {
        case input, output
    }

    /// The parameter's number inside its node.
    public var id: Int
    public var name: String
    public var direction: Direction
    /// The lowest accepted value; `nil` for outputs.
    public var min: Double?
    /// The highest accepted value; `nil` for outputs.
    public var max: Double?
    /// The value a new node starts with; `nil` for outputs.
    public var `default`: Double?
    /// `generic`, `hertz`, `seconds`, `milliseconds`, `decibels`, `percent`, `beats`,
    /// `boolean`, `semitones`, `count`.
    public var unit: String
    /// The current value.
    public var value: Double
    /// Its named values (`saw` = 3), which `parameters.set` takes for the number; absent
    /// when it has none.
    public var choices: [Choice]?
    /// `true` when the value is always one of `choices` (an enumeration, a toggle: a remote
    /// offers a selector); absent when it is not.
    public var enumeration: Bool?
    /// For an LV2 plugin's file property (unit `path`, eg-sampler's `sample`), the file just
    /// set; absent otherwise.
    public var file: String?

    /// A named value.
    public struct Choice: Hashable, Sendable, Codable {
        public var label: String
        public var value: Double

        public init(label: String, value: Double) {
            self.label = label
            self.value = value
        }
    }

    public init(
        id: Int, name: String, direction: Direction = .input, min: Double?, max: Double?,
        default: Double?, unit: String, value: Double, choices: [Choice]? = nil, enumeration: Bool? = nil, file: String? = nil
    ) {
        self.id = id
        self.name = name
        self.direction = direction
        self.min = min
        self.max = max
        self.default = `default`
        self.unit = unit
        self.value = value
        self.choices = choices
        self.enumeration = enumeration
        self.file = file
    }
}

/// `parameters.set`: give one input parameter of one node a value — a number, or the label
/// of one of its choices (`"value":"saw"`), or, for an LV2 plugin's file property, the
/// file's path.
///
/// - Thread: any (a plain value).
public struct ParameterAssignment: Hashable, Sendable, Codable {
    /// The node id.
    public var node: String
    /// The parameter name.
    public var parameter: String
    /// The number (0 when `choice` names the value).
    public var value: Double
    /// The label of the choice to set (or a file property's path), when the value was given as text.
    public var choice: String?
    /// When it takes effect, in nanoseconds of the system's monotonic clock
    /// (`CLOCK_MONOTONIC`, as the daemon reads it): a built-in node's value lands on that
    /// moment's audio frame, as a controller's move does. Absent: now.
    public var at: Int64?

    public init(node: String, parameter: String, value: Double, at: Int64? = nil) {
        self.node = node
        self.parameter = parameter
        self.value = value
        self.at = at
    }

    public init(node: String, parameter: String, choice: String, at: Int64? = nil) {
        self.init(node: node, parameter: parameter, value: 0, at: at)
        self.choice = choice
    }

    private enum CodingKeys: String, CodingKey {
        case node, parameter, value, at
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        node = try container.decode(String.self, forKey: .node)
        parameter = try container.decode(String.self, forKey: .parameter)
        at = try container.decodeIfPresent(Int64.self, forKey: .at)
        do {
            value = try container.decode(Double.self, forKey: .value)
        } catch {
            // A choice's name; anything else is refused as the number it should be.
            guard let label = try? container.decode(String.self, forKey: .value) else { throw error }
            (value, choice) = (0, label)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(node, forKey: .node)
        try container.encode(parameter, forKey: .parameter)
        if let choice { try container.encode(choice, forKey: .value) } else { try container.encode(value, forKey: .value) }
        try container.encodeIfPresent(at, forKey: .at)
    }

    /// The number to set: `value`, or the value of the choice `choice` names among `choices`.
    /// - Throws: `ControlError` (`invalid-value`) naming the choices when none has that label.
    public func number(among choices: [ParameterSummary.Choice]?) throws(ControlError) -> Double {
        guard let choice else { return value }
        let known = choices ?? []
        guard let match = known.first(where: { $0.label.caseInsensitiveCompare(choice) == .orderedSame }) else {
            throw ControlError(.invalidValue, "parameter '\(parameter)' of node '\(node)' has no choice '\(choice)'",
                               fix: known.isEmpty ? "give a number" : "use one of \(known.map(\.label).joined(separator: ", ")), or a number")
        }
        return match.value
    }
}
