import RenderCore
import Synth

/// The graph `midihub render` and `play` use: an instrument (the built-in synth or a
/// SoundFont) into a reverb.
public enum StandardGraph {
    /// - Thread: control.
    public static func nodes(bank: PresetBank, voiceCapacity: Int = 256) -> [any Node] {
        nodes(playing: SynthNode(bank: bank, voiceCapacity: voiceCapacity))
    }

    /// The graph around an instrument the caller keeps (e.g. to read its voice count).
    /// - Thread: control.
    public static func nodes(playing instrument: any Node) -> [any Node] {
        [instrument, ReverbNode()]
    }
}
