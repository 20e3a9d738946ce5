import RenderCore

/// A node type the daemon can instantiate: its descriptor, its parameters, the values it
/// publishes (`Node.outputs`: voices, levels) and the names of its send outputs
/// (`Node.sendOutputs`).
///
/// - Thread: any (a plain value).
public struct NodeType: Hashable, Sendable {
    public var descriptor: NodeDescriptor
    public var parameters: [ParameterInfo]
    public var outputs: [OutputInfo]
    public var sendOutputs: [String]

    /// - Parameter parameters: the node's own; an effect's list gets the host's `bypass` too.
    public init(descriptor: NodeDescriptor, parameters: [ParameterInfo], outputs: [OutputInfo] = [], sendOutputs: [String] = []) {
        self.descriptor = descriptor
        self.parameters = parameters + (descriptor.kind.canBypass ? [.bypass] : [])
        self.outputs = outputs
        self.sendOutputs = sendOutputs
    }
}

/// Where LV2 plugins are found by URI or name (the installed ones: `Plugins.InstalledPlugins`):
/// the node type a patch's `plugin:` or a `nodes.add` names.
///
/// - Thread: control (it may read the plugins' bundles the first time; never on the MIDI or
///   render thread).
public protocol PluginDirectory: AnyObject, Sendable {
    /// The descriptor of the plugin `reference` names (its URI, its name, or a part of either
    /// that no other plugin's has), its kind following from its ports.
    /// - Throws: a `PluginRefusal`: none or several match, or midihub cannot host it.
    func descriptor(for reference: String) throws(PluginRefusal) -> NodeDescriptor
    /// The control values of the preset `preset` (its label, ignoring case, or its URI) of
    /// the plugin `descriptor` hosts, by port symbol.
    /// - Throws: a `PluginRefusal` naming the presets there are.
    func presetValues(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> [String: Float]
    /// The preset's state as lilv's Turtle text when it holds some of the plugin's own beside
    /// control values (`NodeDescriptor.pluginState`); `nil` when it holds control values only.
    /// - Throws: a `PluginRefusal` naming the presets there are.
    func presetState(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> String?
    /// The MIDI processor that runs the plugin `descriptor` hosts, a MIDI effect (kind
    /// `midiProcessor`), or `nil` when it is no plugin of this system.
    /// - Thread: control (it instantiates the plugin; the owner only on a rebase).
    func makeProcessor(_ descriptor: NodeDescriptor) -> (any MIDIProcessor)?
}

/// Why a plugin reference gives no node: one line naming the problem, and the fix.
/// - Thread: any (a plain value).
public struct PluginRefusal: Error, Hashable, Sendable {
    public var problem: String
    public var fix: String

    public init(_ problem: String, fix: String) {
        self.problem = problem
        self.fix = fix
    }
}

/// The node types available to patches and the control API, looked up by name (case-insensitive)
/// or by (kind, subtype, manufacturer). The daemon registers the built-in synth and effects;
/// MIDI processors and external nodes need no registration, nor do LV2 plugins, whose
/// descriptors carry their types (`NodeDescriptor.plugin`), found through `plugins`.
///
/// - Thread: control (a plain value).
public struct NodeRegistry: Hashable, Sendable {
    public private(set) var types: [NodeType] = []
    /// Where `plugin:` references are looked up (`nil`: no LV2 plugins here).
    public var plugins: (any PluginDirectory)?

    public init(_ types: [NodeType] = [], plugins: (any PluginDirectory)? = nil) {
        for type in types { register(type) }
        self.plugins = plugins
    }

    public static func == (lhs: NodeRegistry, rhs: NodeRegistry) -> Bool {
        lhs.types == rhs.types && lhs.plugins === rhs.plugins
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(types) }

    /// The registry with LV2 plugins found through `directory`.
    public func with(plugins directory: (any PluginDirectory)?) -> NodeRegistry {
        var registry = self
        registry.plugins = directory
        return registry
    }

    /// The control values of `preset` of the plugin `descriptor` hosts, through `plugins`.
    /// - Throws: a `PluginRefusal` (also when no plugins are available here).
    public func presetValues(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> [String: Float] {
        guard let plugins else {
            throw PluginRefusal("LV2 plugins are not available here", fix: "use a built-in instrument or effect")
        }
        return try plugins.presetValues(of: descriptor, preset: preset)
    }

    /// The preset's own state, through `plugins` (`PluginDirectory.presetState`).
    /// - Throws: a `PluginRefusal` (also when no plugins are available here).
    public func presetState(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> String? {
        guard let plugins else {
            throw PluginRefusal("LV2 plugins are not available here", fix: "use a built-in instrument or effect")
        }
        return try plugins.presetState(of: descriptor, preset: preset)
    }

    /// The descriptor of the plugin `reference` names, through `plugins`.
    /// - Throws: a `PluginRefusal` (also when no plugins are available here).
    public func plugin(_ reference: String) throws(PluginRefusal) -> NodeDescriptor {
        guard let plugins else {
            throw PluginRefusal("LV2 plugins are not available here", fix: "use a built-in instrument or effect")
        }
        return try plugins.descriptor(for: reference)
    }

    /// Adds `type`, replacing a type of the same name.
    public mutating func register(_ type: NodeType) {
        types.removeAll { $0.descriptor.name.lowercased() == type.descriptor.name.lowercased() }
        types.append(type)
    }

    public func type(named name: String) -> NodeType? {
        types.first { $0.descriptor.name.lowercased() == name.lowercased() }
    }

    public func type(for descriptor: NodeDescriptor) -> NodeType? {
        if let plugin = descriptor.plugin {
            return NodeType(descriptor: descriptor, parameters: plugin.parameters, outputs: plugin.outputs)
        }
        return types.first {
            $0.descriptor.kind == descriptor.kind && $0.descriptor.subtype == descriptor.subtype
                && $0.descriptor.manufacturer == descriptor.manufacturer
        }
    }

    /// The values a graph node's body publishes (registered units, audio inputs, and external
    /// instruments whose sound comes back: an audio input's).
    public func outputs(of body: NodeBody) -> [OutputInfo] {
        switch body {
        case .unit(let descriptor): type(for: descriptor)?.outputs ?? []
        case .input: type(for: .audioInput)?.outputs ?? []
        case .external(let node) where node.playsIntoGraph: type(for: .audioInput)?.outputs ?? []
        case .processor, .source, .external, .output: []
        }
    }

    /// The parameters of a graph node's body, when the hub knows them (processors, registered units).
    /// - Thread: control (processors are instantiated to read theirs).
    public func parameters(of body: NodeBody) -> [ParameterInfo]? {
        switch body {
        case .processor(let config): config.makeProcessor().parameterInfos
        case .unit(let descriptor): type(for: descriptor)?.parameters
        case .input: type(for: .audioInput)?.parameters
        case .external(let node) where node.playsIntoGraph: type(for: .audioInput)?.parameters
        case .source, .external, .output: nil
        }
    }
}
