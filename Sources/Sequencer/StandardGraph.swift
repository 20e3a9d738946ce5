import RenderCore
import Synth

/// The graph `midihub render` and `play` use around their instrument. The built-in synth
/// plays into a reverb. A SoundFont instrument is heard dry beside a reverb bus and a chorus
/// bus that its `reverb` and `chorus` send outputs feed — each voice at the level its zone
/// and the channel's CC 91 and 93 give it, as General MIDI players and `serve`'s default
/// setup do.
///
/// - Thread: control (a value made before rendering).
public struct StandardGraph {
    public let nodes: [any Node]
    public let wiring: AudioWiring

    /// The built-in synth with `bank`'s sounds, into a reverb.
    public init(bank: PresetBank, voiceCapacity: Int = 256) {
        self.init(playing: SynthNode(bank: bank, voiceCapacity: voiceCapacity))
    }

    /// The graph around an instrument the caller keeps (e.g. to read its voice count).
    public init(playing instrument: any Node) {
        guard let reverb = instrument.sendOutputs.firstIndex(of: "reverb"),
              let chorus = instrument.sendOutputs.firstIndex(of: "chorus") else {
            nodes = [instrument, ReverbNode()]
            wiring = .chain(takesInput: [false, true])
            return
        }
        let hall = ReverbNode(), ensemble = ChorusNode()
        GeneralMIDIBuses.preset(hall, GeneralMIDIBuses.reverb)
        GeneralMIDIBuses.preset(ensemble, GeneralMIDIBuses.chorus)
        nodes = [instrument, hall, ensemble]
        wiring = AudioWiring(inputs: [[], [AudioWiring.Port(0, output: reverb + 1)], [AudioWiring.Port(0, output: chorus + 1)]],
                             toOutput: [0, 1, 2])
    }

    /// The graph as a program for `format` (its nodes prepared for it).
    public func program(format: RenderFormat) -> RenderProgram {
        RenderProgram(nodes: nodes, wiring: wiring, format: format)
    }
}
