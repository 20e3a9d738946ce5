/// One typed method per request, for callers that know what they ask for.
///
/// - Thread: the client's thread.
extension ControlClient {
    public func ports() throws(ControlClientError) -> [PortSummary] {
        try expect(.listPorts) { if case .ports(let ports) = $0 { ports } else { nil } }
    }

    public func connections() throws(ControlClientError) -> [ConnectionSummary] {
        try expect(.listConnections) { if case .connections(let connections) = $0 { connections } else { nil } }
    }

    public func nodes() throws(ControlClientError) -> [NodeSummary] {
        try expect(.listNodes) { if case .nodes(let nodes) = $0 { nodes } else { nil } }
    }

    /// Every node type the daemon can add, each with its parameters at their defaults.
    public func nodeTypes() throws(ControlClientError) -> [NodeSummary] {
        try expect(.listNodeTypes) { if case .nodes(let types) = $0 { types } else { nil } }
    }

    public func connect(_ source: String, to destination: String) throws(ControlClientError) {
        _ = try request(.connect(ConnectionSummary(source: source, destination: destination)))
    }

    public func disconnect(_ source: String, from destination: String) throws(ControlClientError) {
        _ = try request(.disconnect(ConnectionSummary(source: source, destination: destination)))
    }

    public func addNode(_ spec: NodeSpec) throws(ControlClientError) -> NodeSummary {
        try expect(.addNode(spec)) { if case .node(let node) = $0 { node } else { nil } }
    }

    public func removeNode(_ id: String) throws(ControlClientError) {
        _ = try request(.removeNode(NodeReference(node: id)))
    }

    public func replaceNode(_ id: String, with spec: NodeSpec) throws(ControlClientError) -> NodeSummary {
        try expect(.replaceNode(NodeReplacement(node: id, with: spec))) { if case .node(let node) = $0 { node } else { nil } }
    }

    public func loadPreset(_ preset: String, into node: String) throws(ControlClientError) -> NodeSummary {
        try expect(.loadPreset(PresetLoad(node: node, preset: preset))) { if case .node(let node) = $0 { node } else { nil } }
    }

    public func savePreset(of node: String, label: String) throws(ControlClientError) -> PresetSummary {
        try expect(.savePreset(PresetSave(node: node, label: label))) { if case .preset(let preset) = $0 { preset } else { nil } }
    }

    public func setParameter(_ parameter: String, of node: String, to value: Double, at moment: Int64? = nil) throws(ControlClientError)
        -> ParameterSummary
    {
        let assignment = ParameterAssignment(node: node, parameter: parameter, value: value, at: moment)
        return try expect(.setParameter(assignment)) { if case .parameter(let parameter) = $0 { parameter } else { nil } }
    }

    public func loadPatch(_ source: PatchSource) throws(ControlClientError) -> GraphSummary {
        try expect(.loadPatch(source)) { if case .graph(let graph) = $0 { graph } else { nil } }
    }

    public func rules() throws(ControlClientError) -> [RuleSummary] {
        try expect(.listRules) { if case .rules(let rules) = $0 { rules } else { nil } }
    }

    public func setRules(_ rules: [RuleSummary]) throws(ControlClientError) -> [RuleSummary] {
        try expect(.setRules(RuleList(rules: rules))) { if case .rules(let rules) = $0 { rules } else { nil } }
    }

    public func mappings() throws(ControlClientError) -> [MappingSummary] {
        try expect(.listMappings) { if case .mappings(let mappings) = $0 { mappings } else { nil } }
    }

    public func setMappings(_ text: String) throws(ControlClientError) -> [MappingSummary] {
        try expect(.setMappings(MappingList(text: text))) { if case .mappings(let mappings) = $0 { mappings } else { nil } }
    }

    public func scenes() throws(ControlClientError) -> [SceneSummary] {
        try expect(.listScenes) { if case .scenes(let scenes) = $0 { scenes } else { nil } }
    }

    public func switchScene(_ name: String) throws(ControlClientError) -> SceneSummary {
        try expect(.switchScene(SceneReference(scene: name))) { if case .scene(let scene) = $0 { scene } else { nil } }
    }

    public func triggers() throws(ControlClientError) -> [TriggerSummary] {
        try expect(.listTriggers) { if case .triggers(let triggers) = $0 { triggers } else { nil } }
    }

    public func fireTrigger(_ name: String) throws(ControlClientError) -> TriggerSummary {
        try expect(.fireTrigger(TriggerReference(trigger: name))) { if case .trigger(let trigger) = $0 { trigger } else { nil } }
    }

    public func widgets() throws(ControlClientError) -> [WidgetSummary] {
        try expect(.listWidgets) { if case .widgets(let widgets) = $0 { widgets } else { nil } }
    }

    /// Moves widget `name` (its target, else its title) to `value`.
    public func setWidget(_ name: String, to value: Double) throws(ControlClientError) -> WidgetSummary {
        try expect(.setWidget(WidgetSetting(widget: name, value: value))) { if case .widget(let widget) = $0 { widget } else { nil } }
    }

    public func pressWidget(_ name: String) throws(ControlClientError) -> WidgetSummary {
        try expect(.pressWidget(WidgetReference(widget: name))) { if case .widget(let widget) = $0 { widget } else { nil } }
    }

    public func releaseWidget(_ name: String) throws(ControlClientError) -> WidgetSummary {
        try expect(.releaseWidget(WidgetReference(widget: name))) { if case .widget(let widget) = $0 { widget } else { nil } }
    }

    public func transport(_ request: TransportRequest) throws(ControlClientError) -> TransportStatus {
        try expect(.transport(request)) { if case .transport(let status) = $0 { status } else { nil } }
    }

    public func recordAudio(_ request: AudioRecordRequest) throws(ControlClientError) -> AudioRecordingSummary {
        try expect(.recordAudio(request)) { if case .audioRecording(let summary) = $0 { summary } else { nil } }
    }

    /// The daemon's RTP-MIDI sessions.
    public func networkStatus() throws(ControlClientError) -> [NetworkSessionSummary] {
        try expect(.networkStatus) { if case .networkSessions(let sessions) = $0 { sessions } else { nil } }
    }

    /// Has the daemon invite `host` (`HOST[:PORT]`) from now on.
    public func networkConnect(_ host: String) throws(ControlClientError) {
        _ = try request(.networkConnect(NetworkPeerAddress(host: host)))
    }

    /// Has the daemon end its session with `peer` and stop inviting it.
    public func networkDisconnect(_ peer: String) throws(ControlClientError) {
        _ = try request(.networkDisconnect(NetworkPeerReference(peer: peer)))
    }

    func expect<Value>(_ request: ControlRequest, _ extract: (ControlResult) -> Value?)
        throws(ControlClientError) -> Value
    {
        guard let value = extract(try self.request(request)) else {
            throw .malformedLine("'\(request.kind.rawValue)' answered with another result")
        }
        return value
    }
}
