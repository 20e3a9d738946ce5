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

/// The node types available to patches and the control API, looked up by name (case-insensitive)
/// or by (kind, subtype, manufacturer). The daemon registers the built-in synth and effects;
/// MIDI processors and external nodes need no registration.
///
/// - Thread: control (a plain value).
public struct NodeRegistry: Hashable, Sendable {
    public private(set) var types: [NodeType] = []

    public init(_ types: [NodeType] = []) {
        for type in types { register(type) }
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
        types.first {
            $0.descriptor.kind == descriptor.kind && $0.descriptor.subtype == descriptor.subtype
                && $0.descriptor.manufacturer == descriptor.manufacturer
        }
    }

    /// The values a graph node's body publishes (registered units and audio inputs).
    public func outputs(of body: NodeBody) -> [OutputInfo] {
        switch body {
        case .unit(let descriptor): type(for: descriptor)?.outputs ?? []
        case .input: type(for: .audioInput)?.outputs ?? []
        case .processor, .source, .external, .output: []
        }
    }

    /// The parameters of a graph node's body, when the hub knows them (processors, registered units).
    /// - Thread: control (processors are instantiated to read theirs).
    public func parameters(of body: NodeBody) -> [ParameterInfo]? {
        switch body {
        case .processor(let config): config.makeProcessor().parameters.infos
        case .unit(let descriptor): type(for: descriptor)?.parameters
        case .input: type(for: .audioInput)?.parameters
        case .source, .external, .output: nil
        }
    }
}
