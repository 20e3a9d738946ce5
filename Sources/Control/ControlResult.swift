/// `hello`'s result: who the daemon is and which protocol it speaks.
/// `protocolVersion` is in every version of the protocol.
///
/// - Thread: any (a plain value).
public struct HelloResult: Hashable, Sendable, Codable {
    public var protocolVersion: Int
    /// The daemon's name, "midihub".
    public var server: String?
    /// The daemon's software version.
    public var version: String?

    public init(protocolVersion: Int = ControlProtocol.version, server: String? = "midihub", version: String? = nil) {
        self.protocolVersion = protocolVersion
        self.server = server
        self.version = version
    }
}

/// The `result` of a successful response. Which case comes back depends on the
/// request (see `ControlRequestKind.resultShape`); `done` is the empty object `{}`.
///
/// - Thread: any (a plain value).
public enum ControlResult: Hashable, Sendable {
    case hello(HelloResult)
    case ports([PortSummary])
    case connections([ConnectionSummary])
    case nodes([NodeSummary])
    case node(NodeSummary)
    case parameter(ParameterSummary)
    case preset(PresetSummary)
    case graph(GraphSummary)
    case rules([RuleSummary])
    case mappings([MappingSummary])
    case scenes([SceneSummary])
    case scene(SceneSummary)
    case triggers([TriggerSummary])
    case trigger(TriggerSummary)
    case widgets([WidgetSummary])
    case widget(WidgetSummary)
    case transport(TransportStatus)
    case audioRecording(AudioRecordingSummary)
    case networkSessions([NetworkSessionSummary])
    case done
}

extension ControlResult: Encodable {
    private struct NoKeys: CodingKey {
        var stringValue: String { "" }
        var intValue: Int? { nil }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .hello(let hello): try hello.encode(to: encoder)
        case .ports(let ports): try ports.encode(to: encoder)
        case .connections(let connections): try connections.encode(to: encoder)
        case .nodes(let nodes): try nodes.encode(to: encoder)
        case .node(let node): try node.encode(to: encoder)
        case .parameter(let parameter): try parameter.encode(to: encoder)
        case .preset(let preset): try preset.encode(to: encoder)
        case .graph(let graph): try graph.encode(to: encoder)
        case .rules(let rules): try rules.encode(to: encoder)
        case .mappings(let mappings): try mappings.encode(to: encoder)
        case .scenes(let scenes): try scenes.encode(to: encoder)
        case .scene(let scene): try scene.encode(to: encoder)
        case .triggers(let triggers): try triggers.encode(to: encoder)
        case .trigger(let trigger): try trigger.encode(to: encoder)
        case .widgets(let widgets): try widgets.encode(to: encoder)
        case .widget(let widget): try widget.encode(to: encoder)
        case .transport(let status): try status.encode(to: encoder)
        case .audioRecording(let summary): try summary.encode(to: encoder)
        case .networkSessions(let sessions): try sessions.encode(to: encoder)
        case .done: _ = encoder.container(keyedBy: NoKeys.self)
        }
    }
}

extension ControlRequestKind {
    /// Decodes the `result` of a response to a request of this kind.
    func decodeResult(from line: [UInt8]) throws -> ControlResult {
        func result<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try JSONLine.decode(ResultEnvelope<Value>.self, from: line).result
        }
        switch self {
        case .hello: return .hello(try result(HelloResult.self))
        case .listPorts: return .ports(try result([PortSummary].self))
        case .listConnections: return .connections(try result([ConnectionSummary].self))
        case .listNodes, .listNodeTypes: return .nodes(try result([NodeSummary].self))
        case .addNode, .replaceNode, .loadPreset: return .node(try result(NodeSummary.self))
        case .savePreset: return .preset(try result(PresetSummary.self))
        case .setParameter: return .parameter(try result(ParameterSummary.self))
        case .loadPatch: return .graph(try result(GraphSummary.self))
        case .listRules, .setRules: return .rules(try result([RuleSummary].self))
        case .listMappings, .setMappings: return .mappings(try result([MappingSummary].self))
        case .listScenes: return .scenes(try result([SceneSummary].self))
        case .switchScene: return .scene(try result(SceneSummary.self))
        case .listTriggers: return .triggers(try result([TriggerSummary].self))
        case .fireTrigger: return .trigger(try result(TriggerSummary.self))
        case .listWidgets: return .widgets(try result([WidgetSummary].self))
        case .setWidget, .pressWidget, .releaseWidget: return .widget(try result(WidgetSummary.self))
        case .transport: return .transport(try result(TransportStatus.self))
        case .recordAudio: return .audioRecording(try result(AudioRecordingSummary.self))
        case .networkStatus: return .networkSessions(try result([NetworkSessionSummary].self))
        case .connect, .disconnect, .removeNode, .subscribe, .learn, .cancelLearn, .networkConnect, .networkDisconnect:
            return .done
        }
    }
}

private struct ResultEnvelope<Value: Decodable>: Decodable {
    var result: Value
}
