/// The unit a parameter value is shown in.
/// - Thread: any (a plain value).
public enum ParameterUnit: String, Hashable, Sendable {
    case generic, hertz, seconds, milliseconds, decibels, percent, beats, boolean, semitones, count
}

/// A named input value of a node (written by widgets, CC mappings or the sequencer).
///
/// - Thread: any (a plain value).
public struct ParameterInfo: Hashable, Sendable {
    public var id: UInt32
    public var name: String
    public var range: ClosedRange<Float>
    public var defaultValue: Float
    public var unit: ParameterUnit

    public init(id: UInt32, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: ParameterUnit) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
    }

    /// `value` limited to `range`.
    @inlinable
    public func clamp(_ value: Float) -> Float { min(max(value, range.lowerBound), range.upperBound) }
}

/// A named output value of a node (meters, voice count), read by labels.
///
/// - Thread: any (a plain value).
public struct OutputInfo: Hashable, Sendable {
    public var id: UInt32
    public var name: String
    public var unit: ParameterUnit

    public init(id: UInt32, name: String, unit: ParameterUnit) {
        self.id = id
        self.name = name
        self.unit = unit
    }
}
