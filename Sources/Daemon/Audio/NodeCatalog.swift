import AudioHost
import Hub
import Plugins
import RenderCore
import SetupViews
import SoundFont
import Synth

/// The render node types the daemon can instantiate: the built-in synth, the SoundFont
/// instrument, the effects, and the LV2 plugins installed.
/// Gives the `NodeRegistry` that patches and the control API validate against, and makes
/// fresh nodes for a descriptor.
///
/// - Thread: control.
public struct NodeCatalog: Sendable {
    /// The sounds of every synth the daemon creates.
    public let bank: PresetBank
    /// The font every SoundFont instrument plays (`--soundfont`, or the installed General
    /// MIDI font), read once when the daemon starts; without one, such a node stays silent.
    public let font: SoundFont?
    /// The solo buttons of every mixer strip the catalog makes act together.
    let soloGroup = StripSoloGroup()
    /// The LV2 plugins plugin nodes host (`nil`: none here).
    let plugins: InstalledPlugins?
    /// Where audio inputs and outputs report a device that fails or comes back (the daemon's log).
    let report: @Sendable (String) -> Void
    /// The external instruments whose sound comes back from JACK, served by the hub's JACK client.
    public let jackPorts = JackAudioPorts()

    public init(bank: PresetBank, font: SoundFont? = nil, plugins: InstalledPlugins? = nil,
                report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.bank = bank
        self.font = font
        self.plugins = plugins
        self.report = report
    }

    /// A new, unprepared render node for `descriptor`, or `nil` when it is not a type the
    /// catalog knows (or a SoundFont instrument with no font).
    public func makeNode(_ descriptor: NodeDescriptor) -> (any Node)? {
        if descriptor.plugin != nil { return plugins?.makeNode(descriptor) }
        return switch (descriptor.subtype, descriptor.manufacturer) {
        case (SynthNode.nodeDescriptor.subtype, SynthNode.nodeDescriptor.manufacturer): SynthNode(bank: bank)
        case (SoundFontNode.nodeDescriptor.subtype, SoundFontNode.nodeDescriptor.manufacturer): font.map { SoundFontNode(font: $0) }
        case (ReverbNode().descriptor.subtype, _): ReverbNode()
        case (StereoDelayNode().descriptor.subtype, _): StereoDelayNode()
        case (ChorusNode().descriptor.subtype, _): ChorusNode()
        case (MixerStripNode().descriptor.subtype, _): MixerStripNode(soloGroup: soloGroup)
        case (EqualizerNode().descriptor.subtype, _): EqualizerNode()
        case (CompressorNode().descriptor.subtype, _): CompressorNode()
        case (NoteGateNode().descriptor.subtype, _): NoteGateNode()
        case (MetronomeNode.nodeDescriptor.subtype, MetronomeNode.nodeDescriptor.manufacturer): MetronomeNode()
        default: nil
        }
    }

    /// A new, unprepared audio input capturing from `device` (it starts when prepared).
    func makeInput(device: String) -> AudioInputNode {
        AudioInputNode(device: device, report: report)
    }

    /// A new, unprepared node that plays JACK ports' sound into the graph — an external
    /// instrument's (`audio:`) or an input's: the JACK audio outputs `selector` matches, or
    /// with none, the system's physical capture ports.
    func makeJackInput(named name: NodeID, source: String, selector: PortSelector?) -> JackInputNode {
        var matches: (@Sendable (String) -> Bool)?
        if let selector {
            matches = { fullName in
                selector.matches(PortDescriptor(address: PortAddress(client: 0, port: 0), clientName: "jack", portName: fullName,
                                                portClass: .app, direction: .output))
            }
        }
        return JackInputNode(name: name, source: source, matches: matches, host: jackPorts, report: report)
    }

    /// A sound card to play to beside the main one (its writer thread opens it).
    /// In JACK (`inJack`), a device naming JACK ports (`jack:PATTERN`) is a pair of output
    /// ports of its own, `NAME-left` and `NAME-right`, connected to the ports it matches.
    func makeOutputFeed(device: String, name: NodeID, inJack: Bool, format: RenderFormat) -> any SideOutput {
        guard inJack, device.hasPrefix("jack:") else { return AudioOutputFeed(device: device, format: format, report: report) }
        return JackOutputNode(name: name, destination: device, host: jackPorts, report: report)
    }

}
