/// The name of a request on the wire (`"request":"ports.list"`).
///
/// - Thread: any (a plain value).
public enum ControlRequestKind: String, Hashable, Sendable, Codable, CaseIterable {
    case hello
    case listPorts = "ports.list"
    case listConnections = "connections.list"
    case listNodes = "nodes.list"
    case listNodeTypes = "nodes.types"
    case connect
    case disconnect
    case addNode = "nodes.add"
    case removeNode = "nodes.remove"
    case replaceNode = "nodes.replace"
    case setParameter = "parameters.set"
    case loadPreset = "presets.load"
    case savePreset = "presets.save"
    case loadPatch = "patch.load"
    case listRules = "rules.list"
    case setRules = "rules.set"
    case listMappings = "mappings.list"
    case setMappings = "mappings.set"
    case learn
    case cancelLearn = "learn.cancel"
    case listScenes = "scenes.list"
    case switchScene = "scenes.switch"
    case listTriggers = "triggers.list"
    case fireTrigger = "triggers.fire"
    case listWidgets = "widgets.list"
    case setWidget = "widgets.set"
    case pressWidget = "widgets.press"
    case releaseWidget = "widgets.release"
    case transport
    case recordAudio = "audio.record"
    case networkStatus = "network.status"
    case networkConnect = "network.connect"
    case networkDisconnect = "network.disconnect"
    case subscribe
}

/// One request a client sends, with its parameters. On the wire:
/// `{"id":1,"request":"connect","params":{"source":"20:0","destination":"node:lead"}}`.
///
/// - Thread: any (a plain value).
public enum ControlRequest: Hashable, Sendable {
    case hello(Hello)
    case listPorts
    case listConnections
    case listNodes
    case listNodeTypes
    case connect(ConnectionSummary)
    case disconnect(ConnectionSummary)
    case addNode(NodeSpec)
    case removeNode(NodeReference)
    case replaceNode(NodeReplacement)
    case setParameter(ParameterAssignment)
    case loadPreset(PresetLoad)
    case savePreset(PresetSave)
    case loadPatch(PatchSource)
    case listRules
    case setRules(RuleList)
    case listMappings
    case setMappings(MappingList)
    case learn(LearnRequest)
    case cancelLearn
    case listScenes
    case switchScene(SceneReference)
    case listTriggers
    case fireTrigger(TriggerReference)
    case listWidgets
    case setWidget(WidgetSetting)
    case pressWidget(WidgetReference)
    case releaseWidget(WidgetReference)
    case transport(TransportRequest)
    case recordAudio(AudioRecordRequest)
    case networkStatus
    case networkConnect(NetworkPeerAddress)
    case networkDisconnect(NetworkPeerReference)
    case subscribe(SubscriptionFilter)

    public var kind: ControlRequestKind {
        switch self {
        case .hello: .hello
        case .listPorts: .listPorts
        case .listConnections: .listConnections
        case .listNodes: .listNodes
        case .listNodeTypes: .listNodeTypes
        case .connect: .connect
        case .disconnect: .disconnect
        case .addNode: .addNode
        case .removeNode: .removeNode
        case .replaceNode: .replaceNode
        case .setParameter: .setParameter
        case .loadPreset: .loadPreset
        case .savePreset: .savePreset
        case .loadPatch: .loadPatch
        case .listRules: .listRules
        case .setRules: .setRules
        case .listMappings: .listMappings
        case .setMappings: .setMappings
        case .learn: .learn
        case .cancelLearn: .cancelLearn
        case .listScenes: .listScenes
        case .switchScene: .switchScene
        case .listTriggers: .listTriggers
        case .fireTrigger: .fireTrigger
        case .listWidgets: .listWidgets
        case .setWidget: .setWidget
        case .pressWidget: .pressWidget
        case .releaseWidget: .releaseWidget
        case .transport: .transport
        case .recordAudio: .recordAudio
        case .networkStatus: .networkStatus
        case .networkConnect: .networkConnect
        case .networkDisconnect: .networkDisconnect
        case .subscribe: .subscribe
        }
    }
}

/// `hello` parameters: the protocol version the client speaks and who it is.
///
/// - Thread: any (a plain value).
public struct Hello: Hashable, Sendable, Codable {
    public var protocolVersion: Int
    /// Free text for logs, e.g. "midihub 0.1 (nodes)".
    public var client: String?

    public init(protocolVersion: Int = ControlProtocol.version, client: String? = nil) {
        self.protocolVersion = protocolVersion
        self.client = client
    }
}

/// `nodes.remove` parameters: `{"node":"lead"}`.
///
/// - Thread: any (a plain value).
public struct NodeReference: Hashable, Sendable, Codable {
    public var node: String

    public init(node: String) { self.node = node }
}

/// `nodes.replace` parameters: `{"node":"lead","with":{"type":"synth"}}`. The new node
/// takes over the old one's connections; the daemon crossfades, so audio does not click.
///
/// - Thread: any (a plain value).
public struct NodeReplacement: Hashable, Sendable, Codable {
    public var node: String
    public var with: NodeSpec

    public init(node: String, with spec: NodeSpec) {
        self.node = node
        self.with = spec
    }
}

/// `patch.load` parameters: a patch file on the daemon's machine (`path`, absolute) or
/// the patch text itself (`text`). Exactly one of them.
///
/// - Thread: any (a plain value).
public struct PatchSource: Hashable, Sendable, Codable {
    public var path: String?
    public var text: String?

    public init(path: String) { self.path = path }
    public init(text: String) { self.text = text }
}

/// `rules.set` parameters: the complete new rule list, `{"rules":[…]}`.
///
/// - Thread: any (a plain value).
public struct RuleList: Hashable, Sendable, Codable {
    public var rules: [RuleSummary]

    public init(rules: [RuleSummary]) { self.rules = rules }
}

/// `subscribe` parameters: which events to receive; all of them when `events` is `nil`.
///
/// - Thread: any (a plain value).
public struct SubscriptionFilter: Hashable, Sendable, Codable {
    public var events: Set<ControlEventKind>?

    public init(events: Set<ControlEventKind>? = nil) { self.events = events }

    /// Whether an event of this kind goes to the subscriber. `dropped` always does.
    public func admits(_ kind: ControlEventKind) -> Bool {
        kind == .dropped || events?.contains(kind) ?? true
    }
}

extension ControlRequest {
    /// Whether answering reads a file the client named — `patch.load` by path, `transport`
    /// `load` and `playlist` — which the server does off its own thread (`Responder.Answer`).
    /// - Thread: any.
    var readsFiles: Bool {
        switch self {
        case .loadPatch(let source): source.path != nil
        case .transport(let request): request.action == .load || request.action == .playlist
        default: false
        }
    }
}
