import RenderCore
import Synth

/// The graph `midihub render` and `play` use: the built-in synth into a reverb.
public enum StandardGraph {
    /// - Thread: control.
    public static func nodes(bank: PresetBank, voiceCapacity: Int = 256) -> [any Node] {
        nodes(playing: SynthNode(bank: bank, voiceCapacity: voiceCapacity))
    }

    /// The graph around a synth the caller keeps (e.g. to read its voice count).
    /// - Thread: control.
    public static func nodes(playing synth: SynthNode) -> [any Node] {
        [synth, ReverbNode()]
    }
}
