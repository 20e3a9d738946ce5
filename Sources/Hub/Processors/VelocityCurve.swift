import Foundation
import RenderCore

/// Reshapes note-on velocities: `out = 127 × (scale × v / 127) ^ curve`, rounded and limited to `min…max`
/// (`min` ≥ 1, so a note-on never turns into a note-off). `curve` > 1 softens, < 1 hardens. Other messages pass.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct VelocityCurve: MIDIProcessor {
    public enum Parameter: Int { case curve, scale, minimum, maximum }

    public let parameterInfos = [
        ParameterInfo(id: 0, name: "curve", range: 0.25...4, defaultValue: 1, unit: .generic),
        ParameterInfo(id: 1, name: "scale", range: 0...4, defaultValue: 1, unit: .generic),
        ParameterInfo(id: 2, name: "min", range: 1...127, defaultValue: 1, unit: .generic),
        ParameterInfo(id: 3, name: "max", range: 1...127, defaultValue: 127, unit: .generic),
    ]

    /// The straight curve: every velocity as it came.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init() {}

    /// The output velocity for input velocity `velocity` (1…127) with `parameters`.
    public func map(_ velocity: UInt8, parameters: ParameterValues) -> UInt8 {
        let curve = parameters[Parameter.curve.rawValue], scale = parameters[Parameter.scale.rawValue]
        let low = parameters[Parameter.minimum.rawValue], high = max(low, parameters[Parameter.maximum.rawValue])
        let normalized = min(1, scale * Float(velocity) / 127)
        let shaped = (127 * pow(normalized, curve)).rounded()
        return UInt8(min(high, max(low, shaped)))
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        if case .noteOn(let channel, let note, let velocity) = event.message, velocity > 0 {
            output.append(TimedMIDI(time: event.time, message: .noteOn(channel: channel, note: note, velocity: map(velocity, parameters: parameters))))
        } else {
            output.append(event)
        }
    }
}
