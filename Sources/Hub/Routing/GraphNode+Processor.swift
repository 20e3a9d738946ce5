import RenderCore

/// The MIDI processor of a graph node, as the router runs it.
/// - Thread: control (a change's preparation) or owner (the rebase): both allocate.
extension GraphNode {
    /// The processor that runs this node (its values stay the node's, in the graph): a built-in
    /// processor, or an LV2 MIDI effect made by `plugins` — one that is not installed (or no
    /// directory) passes nothing on (`SilentProcessor`); `nil` for a node that is no processor.
    /// - Throws: `ParameterError` for a value of an unknown parameter.
    func makeProcessor(plugins: (any PluginDirectory)?) throws(ParameterError) -> (any MIDIProcessor)? {
        switch body {
        case .processor(let config):
            let processor = config.makeProcessor()
            try processor.check(parameters)
            return processor
        case .unit(let descriptor) where descriptor.kind == .midiProcessor:
            let processor = plugins?.makeProcessor(descriptor)
                ?? SilentProcessor(parameterInfos: ParameterValues.numbered(descriptor.plugin?.parameters ?? []))
            try processor.check(parameters)
            return processor
        default:
            return nil
        }
    }
}

/// A MIDI processor whose plugin is not there (uninstalled since the state was saved): it
/// passes nothing on; its node's values stay in the graph, so they are saved as they were.
/// - Thread: owner (the MIDI input thread, as every processor).
struct SilentProcessor: MIDIProcessor {
    let parameterInfos: [ParameterInfo]

    mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {}
}

/// - Thread: any.
extension MIDIProcessor {
    /// Checks a node's `values` against the processor's parameters.
    /// - Throws: ``ParameterError`` for a name it does not have or a value that is no number.
    func check(_ values: [String: Float]) throws(ParameterError) {
        let parameters = ParameterValues(parameterInfos)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) { _ = try parameters.checked(name, value) }
    }
}
