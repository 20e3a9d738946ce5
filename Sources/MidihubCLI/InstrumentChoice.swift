import Foundation
import RenderCore
import Sequencer
import SoundFont
import Synth

/// The instrument `render`, `play` and `synth` play, as `InstrumentArguments` choose it:
/// the SoundFont instrument with `--soundfont` or an installed General MIDI font, the
/// built-in synth with `--preset-bank`, `--instrument synth` or no font installed.
///
/// - Thread: control.
struct InstrumentChoice {
    let instrument: any Node
    /// The instrument's active-voice count, for status lines.
    let voiceCount: (values: OutputValues, output: Int)
    /// The SoundFont the instrument plays and its path (nil for the built-in synth).
    let font: (file: SoundFont, path: String)?

    /// Whether the font's file shrank or went while it played: what was cut off sounded as
    /// silence (`SoundFontSampleData.fileChanged`).
    var fontFileChanged: Bool { font?.file.sampleData.fileChanged ?? false }

    /// The fonts looked for when none is given, in order (Debian's General MIDI fonts).
    static let installedFonts = ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2",
                                 "/usr/share/sounds/sf2/TimGM6mb.sf2"]

    /// Reads the font or the preset bank.
    /// - Throws: `CLIError`: a bad font or bank, or no font for `--instrument soundfont`,
    ///   exits 2; an unreadable font file 1.
    init(_ arguments: InstrumentArguments, presetBank: String?) throws {
        if let path = try Self.fontPath(arguments, presetBank: presetBank) {
            let file: SoundFont
            do {
                file = try SoundFont.open(path)
            } catch {
                throw CLIError(error)
            }
            let node = SoundFontNode(font: file)
            font = (file, path)
            instrument = node
            voiceCount = (node.outputValues, SoundFontNode.Output.activeVoices.rawValue)
        } else {
            let synth = SynthNode(bank: try PresetBankLoader.loadForCommandLine(override: presetBank))
            font = nil
            instrument = synth
            voiceCount = (synth.outputValues, SynthNode.Output.activeVoices.rawValue)
        }
    }

    /// The font the SoundFont instrument plays, or nil when the built-in synth plays
    /// (`--instrument synth`, `--preset-bank`, or no font installed).
    /// - Throws: `CLIError` (exit 2) for `--instrument soundfont` with no font.
    static func fontPath(_ arguments: InstrumentArguments, presetBank: String?) throws -> String? {
        let font = arguments.soundfont ?? defaultFont()
        let kind = arguments.instrument ?? (arguments.soundfont != nil || (presetBank == nil && font != nil) ? .soundfont : .synth)
        guard kind == .soundfont else { return nil }
        guard let font else {
            throw CLIError("no SoundFont given and none installed",
                           fix: "pass --soundfont FILE or install a General MIDI font (apt-get install fluid-soundfont-gm)",
                           exitCode: CLIError.badInput)
        }
        return font
    }

    /// `$MIDIHUB_SOUNDFONT` when set, else the first installed font of `installedFonts`.
    static func defaultFont() -> String? {
        if let path = ProcessInfo.processInfo.environment["MIDIHUB_SOUNDFONT"], !path.isEmpty { return path }
        return installedFonts.first { FileManager.default.isReadableFile(atPath: $0) }
    }

    /// The render graph around the instrument.
    var graph: StandardGraph { StandardGraph(playing: instrument) }
}
