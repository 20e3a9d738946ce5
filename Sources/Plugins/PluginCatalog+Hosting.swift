internal import CLilv
import Hub
import RenderCore

/// What hosting a plugin needs of its bundle: which ports are which (`PortLayout`), and
/// the node type its ports make (`NodeDescriptor.plugin`).
/// - Thread: control (the catalog's).
extension PluginCatalog {
    /// The ports of a plugin as the host connects them.
    struct PortLayout {
        var count = 0
        var audioInputs: [UInt32] = [], audioOutputs: [UInt32] = []
        var controlInputs: [UInt32] = [], controlOutputs: [UInt32] = []
        var controlInputsBySymbol: [String: UInt32] = [:]
        /// Whether the host loads the plugin's default state after instantiating it.
        var loadsDefaultState = false
        /// Whether the plugin requires every `run()` to be the same length
        /// (`buf-size:fixedBlockLength`), and that length a power of two (`powerOf2BlockLength`).
        var fixedBlocks = false, powerOfTwoBlocks = false
        /// Atom inputs that take MIDI: the first gets the node's MIDI, the others empty sequences.
        var midiInputs: [UInt32] = []
        var otherAtomInputs: [UInt32] = [], atomOutputs: [UInt32] = []
        /// Atom inputs that take the transport's `time:Position`.
        var timeInputs: [UInt32] = []
        /// Atom inputs that take `patch:Message`s (a file property's `patch:Set`).
        var patchInputs: [UInt32] = []
        var cvInputs: [UInt32] = [], cvOutputs: [UInt32] = []
        /// Each port's default value (control inputs; 0 for the rest).
        var defaults: [Float] = []
        /// The bytes an atom port's buffer holds: the largest `rsz:minimumSize` of its ports,
        /// and never less than `PortLayout.atomBufferFloor` (many plugins declare none).
        var atomBufferSize = PortLayout.atomBufferFloor

        static let atomBufferFloor = 8192
    }

    /// The node type of the plugin `summary` describes, or why midihub cannot host it.
    func descriptor(of summary: PluginSummary) throws(PluginRefusal) -> NodeDescriptor {
        let kind = try summary.hosting.get()
        guard let plugin = handles[summary.uri] else { throw PluginLookupError.unknown(summary.uri).refusal }
        if (0..<lilv_plugin_get_num_ports(plugin)).contains(where: { index in
            lilv_plugin_get_port_by_index(plugin, index).map { lilv_port_is_a(plugin, $0, terms.eventPort) } ?? false
        }) {
            throw PluginRefusal("LV2 plugin '\(summary.name)' uses LV2's old event ports, which midihub does not provide",
                                fix: "use another plugin ('midihub plugins' lists them)")
        }
        let ports = (0..<lilv_plugin_get_num_ports(plugin)).compactMap { index in
            lilv_plugin_get_port_by_index(plugin, index).map { Self.port($0, index: Int(index), of: plugin, terms: terms, world: world) }
        }
        let parameters = ports.filter { $0.type == .control && $0.direction == .input }.map(Self.parameter)
        let outputs = ports.filter { $0.type == .control && $0.direction == .output }.prefix(OutputValues.capacity)
            .enumerated().map { OutputInfo(id: UInt32($0.offset), name: $0.element.symbol, unit: Self.unit($0.element)) }
        let identity = PluginIdentity(uri: summary.uri, parameters: parameters, outputs: outputs,
                                      files: Self.fileProperties(of: plugin, world: world))
        return .plugin(identity, kind: kind, name: summary.name)
    }

    /// The files the plugin takes by `patch:Set`: its `patch:writable` properties whose
    /// range is `atom:Path`, each named by its label (else the end of its URI).
    static func fileProperties(of plugin: OpaquePointer, world: OpaquePointer) -> [PluginFileProperty] {
        let writable = lilv_new_uri(world, LV2Vocabulary.patchWritable), range = lilv_new_uri(world, LV2Vocabulary.range)
        let path = lilv_new_uri(world, LV2Vocabulary.atomPath), label = lilv_new_uri(world, LV2Vocabulary.label)
        defer { [writable, range, path, label].forEach { lilv_node_free($0) } }
        let properties = LilvText.copies(lilv_plugin_get_value(plugin, writable))
        defer { properties.forEach { lilv_node_free($0) } }
        return properties.compactMap { property in
            guard lilv_world_ask(world, property, range, path), let uri = LilvText.string(property) else { return nil }
            let named = lilv_world_get(world, property, label, nil)
            defer { named.map { lilv_node_free($0) } }
            let fallback = String(uri.split(whereSeparator: { $0 == "#" || $0 == "/" }).last ?? Substring(uri))
            return PluginFileProperty(uri: uri, name: LilvText.string(named) ?? fallback)
        }
    }

    /// How the plugin `uri`'s ports are connected.
    func layout(of uri: String) -> PortLayout? {
        guard let plugin = handles[uri] else { return nil }
        var layout = PortLayout()
        let required = Set(LilvText.uris(lilv_plugin_get_required_features(plugin)))
        layout.loadsDefaultState = required.contains(LV2Vocabulary.loadDefaultState)
        layout.powerOfTwoBlocks = required.contains(LV2Vocabulary.powerOf2BlockLength)
        layout.fixedBlocks = layout.powerOfTwoBlocks || required.contains(LV2Vocabulary.fixedBlockLength)
        layout.count = Int(lilv_plugin_get_num_ports(plugin))
        layout.defaults = [Float](repeating: 0, count: layout.count)
        let minimumSize = lilv_new_uri(world, LV2Vocabulary.minimumSize), position = lilv_new_uri(world, LV2Vocabulary.timePosition)
        let patchMessage = lilv_new_uri(world, LV2Vocabulary.patchMessage)
        defer { [minimumSize, position, patchMessage].forEach { lilv_node_free($0) } }
        for index in 0..<UInt32(layout.count) {
            guard let port = lilv_plugin_get_port_by_index(plugin, index) else { continue }
            let input = lilv_port_is_a(plugin, port, terms.inputPort)
            switch Self.portType(port, of: plugin, terms: terms) {
            case .audio: input ? layout.audioInputs.append(index) : layout.audioOutputs.append(index)
            case .cv: input ? layout.cvInputs.append(index) : layout.cvOutputs.append(index)
            case .control:
                guard input else { layout.controlOutputs.append(index); continue }
                layout.controlInputs.append(index)
                let info = Self.parameter(Self.port(port, index: Int(index), of: plugin, terms: terms, world: world))
                layout.defaults[Int(index)] = info.defaultValue
                layout.controlInputsBySymbol[info.name] = index
            case .midi, .atom:
                if input {
                    lilv_port_supports_event(plugin, port, terms.midiEvent)
                        ? layout.midiInputs.append(index) : layout.otherAtomInputs.append(index)
                    if lilv_port_supports_event(plugin, port, position) { layout.timeInputs.append(index) }
                    if lilv_port_supports_event(plugin, port, patchMessage) { layout.patchInputs.append(index) }
                } else {
                    layout.atomOutputs.append(index)
                }
                if let size = lilv_port_get(plugin, port, minimumSize) {
                    layout.atomBufferSize = max(layout.atomBufferSize, Int(lilv_node_as_int(size)))
                    lilv_node_free(size)
                }
            case .other: break
            }
        }
        return layout
    }

    /// The sample rate a port whose range is a fraction of it (`lv2:sampleRate`) is given
    /// its range at: the daemon's usual rate.
    static let referenceSampleRate: Float = 48_000

    /// A control input as a node parameter: named by its symbol, with its range (0…1 where
    /// the bundle gives none; in Hz at `referenceSampleRate` for an `lv2:sampleRate` port),
    /// its default (its minimum where none) and its unit.
    private static func parameter(_ port: PluginPort) -> ParameterInfo {
        let scale: Float = port.properties.contains("sample-rate") ? referenceSampleRate : 1
        let lower = (port.minimum ?? 0) * scale
        let upper = max((port.maximum ?? max(lower, 1)) * scale, lower)
        let range = lower...(upper > lower ? upper : lower + 1)
        let info = ParameterInfo(id: UInt32(port.index), name: port.symbol, range: range, defaultValue: port.defaultValue ?? lower,
                                 unit: unit(port))
        let choices = port.choices.map { ParameterChoice($0.label, $0.value * scale) }.filter { range.contains($0.value) }
        return ParameterInfo(id: info.id, name: info.name, range: range, defaultValue: info.clamp(info.defaultValue), unit: info.unit,
                             choices: choices, enumerates: port.properties.contains("enumeration") || port.properties.contains("toggle"))
    }

    /// The hub's unit for a port's: a toggle is a boolean; dB, Hz, ms, s, % and semitones as
    /// themselves; anything else generic.
    private static func unit(_ port: PluginPort) -> ParameterUnit {
        if port.properties.contains("toggle") { return .boolean }
        if port.properties.contains("sample-rate") { return .hertz }
        switch port.unit?.lowercased() {
        case "db": return .decibels
        case "hz": return .hertz
        case "ms": return .milliseconds
        case "s": return .seconds
        case "%": return .percent
        case "semi", "st", "semitone", "semitones", "semitone12tet": return .semitones
        default: return .generic
        }
    }
}
