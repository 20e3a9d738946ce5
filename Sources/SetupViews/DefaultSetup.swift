import Hub
import Synth

/// The setup the daemon runs with no patch and no saved state: every hardware MIDI input
/// (a USB keyboard; not Midi Through, not System) plays the built-in synth on the default
/// sound output, or the SoundFont instrument when the daemon has a font. Written as a
/// patch, so it is validated like any other. Its rules touch only `midihub:in`'s own
/// connections: what other programs connect (arecordmidi on Midi Through) stays.
///
/// - Thread: any.
public enum DefaultSetup {
    /// With the built-in synth (docs/daemon.md shows it).
    public static let yaml = yaml(instrument: "midihub synth", plays: "the built-in synth")

    /// The same with `instrument` as the `synth` node's type; with `sends`, its reverb and
    /// chorus sends (CC 91 and 93, as General MIDI players do) feed a reverb bus and a
    /// chorus bus heard beside it.
    static func yaml(instrument: String, plays: String, sends: Bool = false) -> String {
        let buses = sends ? """

              hall:
                effect: reverb
                parameters: \(GeneralMIDIBuses.patchParameters(GeneralMIDIBuses.reverb))
              ensemble:
                effect: chorus
                parameters: \(GeneralMIDIBuses.patchParameters(GeneralMIDIBuses.chorus))
            """ : ""
        let sendRoutes = sends ? """

              - { from: synth, output: reverb, to: hall }
              - { from: synth, output: chorus, to: ensemble }
              - hall -> out
              - ensemble -> out
            """ : ""
        return """
            version: 1
            name: default (every keyboard plays \(plays))
            nodes:
              keys:
                source: "*"
              synth:
                instrument: \(instrument)
              out:
                output: default\(buses)
            routes:
              - keys -> synth
              - synth -> out\(sendRoutes)
            rules:
              - connect hardware:* -> "midihub:in"
              - disallow "Midi Through" -> "midihub:in"
            """
    }

    /// The rules of the embedded default before 2026-11-27, which broke every connection from
    /// Midi Through, other programs' too; a saved state still holding exactly them gets
    /// today's (`rulesReplacingFormerDefault`).
    static let formerRules = ["connect hardware:* -> \"midihub:in\"", "disallow \"Midi Through\" -> *"]

    /// Today's default rules when `rules` are exactly the former default's (a state saved
    /// by an older midihub that the user never changed); `nil` otherwise.
    public static func rulesReplacingFormerDefault(_ rules: [ConnectionRule]) -> [ConnectionRule]? {
        guard rules.map(\.description) == formerRules else { return nil }
        return patch.rules
    }

    /// The embedded default as a patch, with the built-in synth.
    public static var patch: Patch { patch(soundFont: false) }

    /// The embedded default as a patch: its `synth` node the SoundFont instrument when the
    /// daemon has a font, else the built-in synth.
    public static func patch(soundFont: Bool) -> Patch {
        let text = soundFont ? yaml(instrument: SoundFontNode.nodeDescriptor.name, plays: "the SoundFont", sends: true) : yaml
        // The text above is fixed and valid (a test checks both).
        return try! Patch.parse(yaml: text, file: "<embedded default>", registry: NodeTypes.registry)
    }
}
