/// The reverb and chorus buses a General MIDI instrument's sends feed (`midihub render`
/// and `play`, and `serve`'s default setup with a SoundFont): set so their levels and the
/// reverb's room match FluidSynth's defaults with the same font (roomsize 0.2, damping 0,
/// width 0.5; a chorus as loud as its three voices at level 2), measured on four song
/// shapes (docs/soundfont.md) and checked by `BusLevelTests`. Both buses are fully wet: the dry sound goes beside them.
///
/// - Thread: any (constants).
public enum GeneralMIDIBuses {
    /// (parameter name, value) of the reverb bus.
    public static let reverb: [(name: String, value: Float)] = [
        ("room size", 0.2), ("damping", 0), ("width", 0.5), ("wet", 0.3), ("dry", 0),
    ]

    /// (parameter name, value) of the chorus bus.
    public static let chorus: [(name: String, value: Float)] = [("mix", 1), ("level", 12)]

    /// Sets `node`'s starting values to `settings` (names its parameters have).
    /// - Thread: control.
    public static func preset(_ node: EffectNode, _ settings: [(name: String, value: Float)]) {
        for (name, value) in settings {
            let known = node.presetParameter(named: name, to: value)
            precondition(known, "\(node.descriptor.name) has no parameter '\(name)'")
        }
    }

    /// `settings` as the `parameters:` map of a patch node (`{ room size: 0.2, … }`).
    public static func patchParameters(_ settings: [(name: String, value: Float)]) -> String {
        "{ " + settings.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + " }"
    }
}
