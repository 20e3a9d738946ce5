import Foundation

/// A parameter a mapping moves, and how a control's position (0…1) becomes its value:
/// `invert`, then `curve`, then `steps` or `values`, then `range`.
///
/// - Thread: any (a plain value).
public struct MappingTarget: Hashable, Sendable, Codable {
    /// The node, or `transport` for the hub's tempo.
    public var node: NodeID
    public var parameter: String
    /// The values the control's ends give (low may exceed high).
    public var low: Float
    public var high: Float
    public var curve: MappingCurve
    public var invert: Bool
    /// The number of values the control steps through (2…128), `nil`: continuous.
    public var steps: Int?
    /// The values the control selects among, in order (an enumeration); replaces the range.
    public var values: [Float]?

    public init(node: NodeID, parameter: String, low: Float, high: Float, curve: MappingCurve = .linear,
                invert: Bool = false, steps: Int? = nil, values: [Float]? = nil) {
        self.node = node
        self.parameter = parameter
        self.low = low
        self.high = high
        self.curve = curve
        self.invert = invert
        self.steps = steps
        self.values = values
    }

    /// The parameter's value at control position `position` (0…1).
    public func value(at position: Double) -> Float {
        var shaped = curve.apply(invert ? 1 - clampUnit(position) : clampUnit(position))
        if let values, !values.isEmpty {
            return values[Int((shaped * Double(values.count - 1)).rounded())]
        }
        if let steps, steps > 1 { shaped = (shaped * Double(steps - 1)).rounded() / Double(steps - 1) }
        return low + Float(shaped) * (high - low)
    }

    /// The control position (0…1) that gives `value` (the nearest one for values the target cannot give).
    public func position(of value: Float) -> Double {
        let shaped: Double
        if let values, values.count > 1 {
            let nearest = values.indices.min { abs(values[$0] - value) < abs(values[$1] - value) } ?? 0
            shaped = Double(nearest) / Double(values.count - 1)
        } else if high != low {
            shaped = clampUnit(Double((value - low) / (high - low)))
        } else {
            shaped = 0
        }
        let position = curve.inverse(shaped)
        return invert ? 1 - position : position
    }

    private func clampUnit(_ x: Double) -> Double { min(max(x, 0), 1) }
}

/// How a control's travel spreads over a range.
///
/// - Thread: any (a plain value).
public enum MappingCurve: String, Hashable, Sendable, Codable, CaseIterable {
    case linear
    /// Fast at the start, fine at the end (the inverse of exponential).
    case logarithmic
    /// Fine at the start, fast at the end: even steps in octaves for a frequency, in dB for a level.
    case exponential
    /// Fine at both ends, fast in the middle.
    case s

    /// The exponential's bend: its value at half travel is 1/11 of the way.
    private static let bend = log(100.0)

    /// The curve at `x` (0…1 to 0…1).
    public func apply(_ x: Double) -> Double {
        switch self {
        case .linear: x
        case .exponential: (exp(Self.bend * x) - 1) / (exp(Self.bend) - 1)
        case .logarithmic: log(1 + x * (exp(Self.bend) - 1)) / Self.bend
        case .s: x < 0.5 ? 2 * x * x : 1 - 2 * (1 - x) * (1 - x)
        }
    }

    /// The `x` whose curve value is `y`.
    public func inverse(_ y: Double) -> Double {
        switch self {
        case .linear: y
        case .exponential: MappingCurve.logarithmic.apply(y)
        case .logarithmic: MappingCurve.exponential.apply(y)
        case .s: y < 0.5 ? (y / 2).squareRoot() : 1 - ((1 - y) / 2).squareRoot()
        }
    }
}
