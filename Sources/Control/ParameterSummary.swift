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

    public init(
        id: Int, name: String, direction: Direction = .input, min: Double?, max: Double?,
        default: Double?, unit: String, value: Double
    ) {
        self.id = id
        self.name = name
        self.direction = direction
        self.min = min
        self.max = max
        self.default = `default`
        self.unit = unit
        self.value = value
    }
}

/// `parameters.set`: give one input parameter of one node a value.
///
/// - Thread: any (a plain value).
public struct ParameterAssignment: Hashable, Sendable, Codable {
    /// The node id.
    public var node: String
    /// The parameter name.
    public var parameter: String
    public var value: Double
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
}
