import AudioHost
import Foundation
import Plugins
import RenderCore
import Sequencer
import SoundFont
import Synth

/// The instrument `render`, `play` and `synth` play, as `InstrumentArguments` choose it:
/// the SoundFont instrument with `--soundfont` or an installed General MIDI font, the
/// built-in synth with `--preset-bank`, `--instrument synth` or no font installed, or the
/// LV2 instrument `--instrument` names.
///
/// - Thread: control.
struct InstrumentChoice {
    let instrument: any Node
    /// The instrument's active-voice count, for status lines (`nil`: an LV2 plugin, which
    /// does not say).
    let voiceCount: VoiceMeter?
    /// The SoundFont the instrument plays and its path (nil for the built-in synth).
    let font: (file: SoundFont, path: String)?

    /// The fonts looked for when none is given, in order (Debian's General MIDI fonts).
    static let installedFonts = ["/usr/share/sounds/sf2/default-GM.sf2", "/usr/share/sounds/sf2/FluidR3_GM.sf2",
                                 "/usr/share/sounds/sf2/TimGM6mb.sf2"]

    /// Reads the font or the preset bank; an LV2 plugin's worker does its work at once when
    /// rendering `offline` (so a render does not depend on a thread's timing).
    /// - Throws: `CLIError`: a bad font or bank, or no font for `--instrument soundfont`,
    ///   exits 2; an unreadable font file 1.
    init(_ arguments: InstrumentArguments, presetBank: String?, offline: Bool = false) throws {
        if case .plugin(let reference) = arguments.instrument {
            instrument = try Self.plugin(reference, offline: offline)
            font = nil
            voiceCount = nil
        } else if let path = try Self.fontPath(arguments, presetBank: presetBank) {
            let file: SoundFont
            do {
                file = try SoundFont.open(path)
            } catch {
                throw CLIError(error)
            }
            let node = SoundFontNode(font: file)
            font = (file, path)
            instrument = node
            voiceCount = VoiceMeter(values: node.outputValues, output: SoundFontNode.Output.activeVoices.rawValue)
        } else {
            let synth = SynthNode(bank: try PresetBankLoader.loadForCommandLine(override: presetBank))
            font = nil
            instrument = synth
            voiceCount = VoiceMeter(values: synth.outputValues, output: SynthNode.Output.activeVoices.rawValue)
        }
    }

    /// The LV2 instrument `reference` names, logging to standard error, its worker's work
    /// done at once when `offline`.
    /// - Throws: `CLIError` (exit 2): no such plugin, several, not an instrument, or one midihub cannot host.
    static func plugin(_ reference: String, offline: Bool) throws -> any PluginNode {
        let plugins = InstalledPlugins(synchronousWork: offline, report: { printError($0) })
        let descriptor: NodeDescriptor
        do {
            descriptor = try plugins.descriptor(for: reference)
        } catch {
            throw CLIError(error.problem, fix: error.fix, exitCode: CLIError.badInput)
        }
        guard descriptor.kind == .instrument, let node = plugins.makeNode(descriptor) else {
            throw CLIError("LV2 plugin '\(descriptor.name)' is \(descriptor.kind == .effect ? "an effect" : "a " + descriptor.kind.rawValue), "
                           + "not an instrument", fix: "name an instrument: 'midihub plugins instrument' lists them",
                           exitCode: CLIError.badInput)
        }
        return node
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
