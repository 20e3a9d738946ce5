import RenderCore
import Sequencer
import SoundFont
import Synth

/// The instrument `render`, `play` and `synth` play: the SoundFont named by `--soundfont`,
/// else the built-in synth with its preset bank.
///
/// - Thread: control.
struct InstrumentChoice {
    let instrument: any Node
    /// The instrument's active-voice count, for status lines.
    let voiceCount: (values: OutputValues, output: Int)

    /// Reads the font or the preset bank.
    /// - Throws: `CLIError`: a bad font or bank exits 2, an unreadable font file 1.
    init(soundfont: String?, presetBank: String?) throws {
        if let soundfont {
            let font: SoundFont
            do {
                font = try SoundFont.open(soundfont)
            } catch {
                throw CLIError(error)
            }
            let node = SoundFontNode(font: font)
            instrument = node
            voiceCount = (node.outputValues, SoundFontNode.Output.activeVoices.rawValue)
        } else {
            let synth = SynthNode(bank: try PresetBankLoader.loadForCommandLine(override: presetBank))
            instrument = synth
            voiceCount = (synth.outputValues, SynthNode.Output.activeVoices.rawValue)
        }
    }

    /// The render graph around the instrument.
    var nodes: [any Node] { StandardGraph.nodes(playing: instrument) }
}
