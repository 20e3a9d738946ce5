import RenderCore

/// The MIDI processor of a graph node, as the router runs it.
/// - Thread: control (a change's preparation) or owner (the rebase): both allocate.
extension GraphNode {
    /// The processor that runs this node with its values: a built-in processor's, or an LV2
    /// MIDI effect's, made by `plugins` — one that is not installed (or no directory) passes
    /// nothing on (`SilentProcessor`), its values kept; `nil` for a node that is no processor.
    /// - Throws: `ParameterError` for a value of an unknown parameter.
    func makeProcessor(plugins: (any PluginDirectory)?) throws(ParameterError) -> (any MIDIProcessor)? {
        switch body {
        case .processor(let config):
            return try config.makeProcessor(values: parameters)
        case .unit(let descriptor) where descriptor.kind == .midiProcessor:
            var processor = plugins?.makeProcessor(descriptor)
                ?? SilentProcessor(parameters: ParameterValues(renumbering: descriptor.plugin?.parameters ?? []))
            for (name, value) in parameters.sorted(by: { $0.key < $1.key }) { try processor.set(name, to: value) }
            return processor
        default:
            return nil
        }
    }
}

/// A MIDI processor whose plugin is not there (uninstalled since the state was saved): it
/// passes nothing on and keeps its parameters' values, so they are saved as they were.
/// - Thread: owner (the MIDI input thread, as every processor).
struct SilentProcessor: MIDIProcessor {
    var parameters: ParameterValues

    mutating func process(_ event: TimedMIDI, into output: inout [TimedMIDI]) {}
}
