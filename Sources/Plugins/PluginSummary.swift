import Hub
import RenderCore

/// One installed LV2 plugin as `midihub plugins` lists it: what it is (from its ports),
/// how many ports of each kind, its presets, and whether midihub provides every feature it
/// requires.
/// - Thread: any (a plain value).
public struct PluginSummary: Codable, Equatable, Sendable {
    /// What a plugin is to the hub, from its ports.
    public enum Kind: String, Codable, Sendable {
        /// MIDI in, audio out, no audio in (a synth, a sampler).
        case instrument
        /// Audio in and out (MIDI in or not: a vocoder, a sidechained compressor).
        case effect
        /// MIDI in and out, no audio (an arpeggiator, a MIDI filter): a music effect.
        case midiEffect = "midi-effect"
        /// Audio out from nothing (an oscillator, a test tone).
        case generator
        /// Anything else (an analyser with only control outputs).
        case other
    }

    public var uri: String
    public var name: String
    public var kind: Kind
    /// The plugin's own class, as its bundle names it (`Reverb Plugin`, `Instrument Plugin`).
    public var lv2Class: String
    public var audioInputs: Int
    public var audioOutputs: Int
    public var midiInputs: Int
    public var midiOutputs: Int
    public var controlInputs: Int
    public var controlOutputs: Int
    /// How many presets the system has for it.
    public var presets: Int
    /// The features it requires (`urid:map`, by URI), and those of them midihub does not provide:
    /// it cannot be hosted while this is not empty.
    public var requires: [String]
    public var missing: [String]

    /// The kind that ports of these counts make.
    /// - Thread: any.
    public static func kind(audioInputs: Int, audioOutputs: Int, midiInputs: Int, midiOutputs: Int) -> Kind {
        if audioInputs > 0, audioOutputs > 0 { return .effect }
        if audioOutputs > 0 { return midiInputs > 0 ? .instrument : .generator }
        if audioInputs == 0, midiInputs > 0, midiOutputs > 0 { return .midiEffect }
        return .other
    }

    /// The node it makes — an instrument, an effect (a music effect when it takes MIDI
    /// too), a generator — or why midihub cannot host it, in one line and its fix: a
    /// feature it requires that midihub does not provide, or ports that make no node midihub
    /// hosts yet (a MIDI effect, a plugin with no audio).
    /// - Thread: any.
    public var hosting: Result<NodeKind, PluginRefusal> {
        let named = "LV2 plugin '\(name)'"
        if !missing.isEmpty {
            return .failure(PluginRefusal("\(named) requires \(missing.joined(separator: ", ")), which midihub does not provide",
                                          fix: "use another plugin; 'midihub plugins' lists those it can host"))
        }
        switch kind {
        case .instrument: return .success(.instrument)
        case .effect: return .success(midiInputs > 0 ? .musicEffect : .effect)
        case .generator: return .success(.generator)
        case .midiEffect: return .success(.midiProcessor)
        case .other:
            return .failure(PluginRefusal("\(named) has neither audio nor MIDI ports, so it plays no part in a graph",
                                          fix: "use an LV2 instrument, effect, generator or MIDI effect ('midihub plugins')"))
        }
    }

    /// Why midihub cannot host it (`nil`: it can), as `hosting` says.
    /// - Thread: any.
    public var refusal: PluginRefusal? {
        if case .failure(let refusal) = hosting { refusal } else { nil }
    }
}
