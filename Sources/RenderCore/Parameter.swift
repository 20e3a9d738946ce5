/// The unit a parameter value is shown in.
/// - Thread: any (a plain value).
public enum ParameterUnit: String, Hashable, Sendable {
    case generic, hertz, seconds, milliseconds, decibels, percent, beats, boolean, semitones, count
}

/// A named value of a parameter: one of an enumeration's (`saw` = 3 of the synth's `osc1
/// wave`, an LV2 port's scale point), or a toggle's `off` and `on`.
///
/// - Thread: any (a plain value).
public struct ParameterChoice: Hashable, Sendable {
    public var label: String
    public var value: Float

    public init(_ label: String, _ value: Float) {
        self.label = label
        self.value = value
    }
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
    /// Its named values, in the order they are offered (a boolean's `off` and `on` when none
    /// are given); empty for a value on a continuous range.
    public var choices: [ParameterChoice]
    /// Whether the value is always one of `choices` (an enumeration, a toggle: a mapped knob
    /// steps through them, a remote offers a selector) rather than a continuous value with a
    /// few named marks (an LV2 port's scale points on a gain).
    public var enumerates: Bool

    /// `enumerates` holds when there are choices, unless given as false.
    public init(id: UInt32, name: String, range: ClosedRange<Float>, defaultValue: Float, unit: ParameterUnit,
                choices: [ParameterChoice] = [], enumerates: Bool = true) {
        self.id = id
        self.name = name
        self.range = range
        self.defaultValue = defaultValue
        self.unit = unit
        self.choices = choices.isEmpty && unit == .boolean
            ? [ParameterChoice("off", range.lowerBound), ParameterChoice("on", range.upperBound)] : choices
        self.enumerates = enumerates && !self.choices.isEmpty
    }

    /// `value` limited to `range`.
    @inlinable
    public func clamp(_ value: Float) -> Float { min(max(value, range.lowerBound), range.upperBound) }

    /// The value of the choice labelled `label` (ignoring case), if it has one.
    public func value(named label: String) -> Float? {
        choices.first { $0.label.lowercased() == label.lowercased() }?.value
    }
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
