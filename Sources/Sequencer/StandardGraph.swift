import RenderCore
import Synth

/// The graph `midihub render` and `play` use: the built-in synth into a reverb.
public enum StandardGraph {
    /// - Thread: control.
    public static func nodes(bank: PresetBank, voiceCapacity: Int = 256) -> [any Node] {
        [SynthNode(bank: bank, voiceCapacity: voiceCapacity), ReverbNode()]
    }
}
