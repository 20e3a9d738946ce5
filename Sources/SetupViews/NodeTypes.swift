import AudioHost
import Hub
import RenderCore
import Synth

/// The built-in node types — the synth, the SoundFont instrument, the effects, the audio
/// input — as the registry patches, the control API and the listings validate against
/// (names as in patches: `midihub synth`, …). The daemon's `NodeCatalog` makes the nodes.
///
/// - Thread: any.
public enum NodeTypes {
    /// The registry, without a preset bank or a font (descriptors and parameters only).
    public static let registry = NodeRegistry(prototypes.map {
        NodeType(descriptor: $0.descriptor, parameters: $0.parameters, outputs: $0.outputs, sendOutputs: $0.sendOutputs)
    }
        + [NodeType(descriptor: SoundFontNode.nodeDescriptor, parameters: SoundFontNode.parameterInfos(voiceCapacity: 256),
                    outputs: InstrumentOutput.infos, sendOutputs: SoundFontNode.sendOutputNames),
           NodeType(descriptor: .audioInput, parameters: AudioInputNode.parameterInfos, outputs: AudioInputNode.outputInfos)])

    /// One instance of each type, to read descriptors and parameter lists from.
    private static var prototypes: [any Node] {
        [SynthNode(bank: PresetBank(timbre: Timbre())), ReverbNode(), StereoDelayNode(), ChorusNode(), MixerStripNode(),
         EqualizerNode(), CompressorNode(), NoteGateNode(), MetronomeNode()]
    }
}
