/// What the daemon does for each request. The server decodes requests, answers
/// `hello` and `subscribe` itself, calls one of these methods for every other request
/// and writes the result back. Throw `ControlError` to refuse a request with a code
/// (`unknown-node`, `invalid-patch`, …); any other error becomes code `failed` with
/// the error's description.
///
/// Changes the daemon makes (a connection made, a parameter set) are announced with
/// `ControlServer.publish(_:)`, which handlers may call.
///
/// - Thread: control (every method is called on the server's loop thread, one at a
///   time; while a method runs, the server answers no other client) — but for the
///   requests that read a file the client named, `loadPatch` with a path and `transport`
///   with `load` or `playlist`: those are called on the server's file thread, one at a
///   time, while the loop goes on serving the other clients.
public protocol ControlHandler: AnyObject, Sendable {
    /// `ports.list`: every MIDI port the daemon sees.
    func ports() throws -> [PortSummary]
    /// `connections.list`: every connection between ports and nodes.
    func connections() throws -> [ConnectionSummary]
    /// `nodes.list`: every node with its parameters.
    func nodes() throws -> [NodeSummary]
    /// `nodes.types`: every node type `nodes.add` takes, its `id` the type's name, its
    /// parameters at their defaults.
    func nodeTypes() throws -> [NodeSummary]
    /// `connect`: makes a connection.
    func connect(_ connection: ConnectionSummary) throws
    /// `disconnect`: removes a connection.
    func disconnect(_ connection: ConnectionSummary) throws
    /// `nodes.add`: creates a node; returns it as it now is.
    func addNode(_ spec: NodeSpec) throws -> NodeSummary
    /// `nodes.remove`: removes the node with this id.
    func removeNode(_ id: String) throws
    /// `nodes.replace`: puts a new node in the place of the node with this id.
    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary
    /// `parameters.set`: sets an input parameter; returns it with its new value.
    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary
    /// `presets.load`: sets every value of a plugin node's preset at once; returns the node.
    func loadPreset(_ load: PresetLoad) throws -> NodeSummary
    /// `presets.save`: saves a plugin node's sound as a preset; returns where.
    func savePreset(_ save: PresetSave) throws -> PresetSummary
    /// `patch.load`: validates and loads a patch; returns the setup now running.
    func loadPatch(_ source: PatchSource) throws -> GraphSummary
    /// `rules.list`: the connection rules in order.
    func rules() throws -> [RuleSummary]
    /// `rules.set`: replaces all rules; returns the rules now in force.
    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary]
    /// `mappings.list`: the controller mappings with their targets' values.
    func mappings() throws -> [MappingSummary]
    /// `mappings.set`: replaces all mappings with the list in `text` (a patch's `mappings:` section).
    func setMappings(_ text: String) throws -> [MappingSummary]
    /// `learn`: arms learning; the outcome comes as a `mapping-learned` or `learn-ended` event.
    func learn(_ request: LearnRequest) throws
    /// `learn.cancel`: stops learning (a `learn-ended` event follows when it was armed).
    func cancelLearn() throws
    /// `scenes.list`: the scenes, the current one marked.
    func scenes() throws -> [SceneSummary]
    /// `scenes.switch`: switches to a scene; returns it.
    func switchScene(_ name: String) throws -> SceneSummary
    /// `triggers.list`: the hub's triggers and the patch's, with their states.
    func triggers() throws -> [TriggerSummary]
    /// `triggers.fire`: fires a trigger; returns it with its state after.
    func fireTrigger(_ name: String) throws -> TriggerSummary
    /// `widgets.list`: what a remote shows, with the values now.
    func widgets() throws -> [WidgetSummary]
    /// `widgets.set`: moves widget `name` (its target, else its title) to `value`; returns
    /// it as `widgets.list` shows it after.
    func setWidget(_ name: String, to value: Double) throws -> WidgetSummary
    /// `widgets.press`: presses widget `name`; returns it after.
    func pressWidget(_ name: String) throws -> WidgetSummary
    /// `widgets.release`: lets widget `name` go; returns it after.
    func releaseWidget(_ name: String) throws -> WidgetSummary
    /// `transport`: loads, plays, pauses, stops, seeks, loops or retimes the hub's sequence,
    /// or only reports where it stands.
    func transport(_ request: TransportRequest) throws -> TransportStatus
    /// `audio.record`: starts recording what the daemon plays to a WAV file, or stops and
    /// writes it.
    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary
    /// `network.status`: the daemon's RTP-MIDI sessions, oldest first.
    func networkStatus() throws -> [NetworkSessionSummary]
    /// `network.connect`: invites a peer (`HOST[:PORT]`) from now on, also after a restart;
    /// its session comes up when it answers (a `session-up` event).
    func networkConnect(_ host: String) throws
    /// `network.disconnect`: ends the session with `peer` (BY) and stops inviting it.
    func networkDisconnect(_ peer: String) throws
}
