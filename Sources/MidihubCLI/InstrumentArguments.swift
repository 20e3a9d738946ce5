import ArgumentParser

/// The instrument options of `render`, `play` and `synth`: which instrument plays, and the
/// SoundFont it plays.
struct InstrumentArguments: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The instrument: soundfont, synth, or an LV2 instrument plugin by URI or name ('midihub plugins' lists them) (default: soundfont when a General MIDI SoundFont is installed or --soundfont is given, synth when --preset-bank is given or no font is found).",
        valueName: "name"))
    var instrument: InstrumentKind?

    @Option(help: "The SoundFont (.sf2 or .sf3) to play (default: $MIDIHUB_SOUNDFONT, then /usr/share/sounds/sf2/default-GM.sf2, FluidR3_GM.sf2, TimGM6mb.sf2).")
    var soundfont: String?
}

/// The instruments the commands can play.
enum InstrumentKind: Equatable, ExpressibleByArgument {
    /// The SoundFont instrument.
    case soundfont
    /// The built-in subtractive synth.
    case synth
    /// An LV2 instrument, by URI or name (docs/plugins.md).
    case plugin(String)

    init?(argument: String) {
        switch argument {
        case "soundfont": self = .soundfont
        case "synth": self = .synth
        case "": return nil
        default: self = .plugin(argument)
        }
    }
}
