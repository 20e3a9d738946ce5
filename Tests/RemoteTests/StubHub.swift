import Control

/// A `ControlHandler` that answers every request the same way each time (no state), so
/// the same requests get the same lines over the socket and over the WebSocket: a
/// keyboard port, one synth node with a gain, empty lists, and errors with the daemon's
/// codes for what it does not have.
final class StubHub: ControlHandler {
    static let keyboard = PortSummary(
        address: "20:0", client: 20, port: 0, clientName: "Virtual Raw MIDI 1-0", portName: "VirMIDI 1-0",
        direction: .duplex, kind: .hardware, card: 1, cardName: "VirMIDI")
    static let gain = ParameterSummary(id: 0, name: "master gain", min: -60, max: 12, default: -10, unit: "decibels", value: -10)
    static let synth = NodeSummary(
        id: "synth", name: "midihub synth", kind: "instrument", subtype: "syn1", manufacturer: "mhub", version: "1.0.0",
        parameters: [gain])

    func ports() throws -> [PortSummary] { [Self.keyboard] }
    func connections() throws -> [ConnectionSummary] { [ConnectionSummary(source: "20:0", destination: "node:synth")] }
    func nodes() throws -> [NodeSummary] { [Self.synth] }
    func nodeTypes() throws -> [NodeSummary] { [Self.synth] }
    func connect(_ connection: ConnectionSummary) throws { try Self.port(connection) }
    func disconnect(_ connection: ConnectionSummary) throws { try Self.port(connection) }
    func addNode(_ spec: NodeSpec) throws -> NodeSummary { throw ControlError(.unknownNodeType, "no node type '\(spec.type)'") }
    func removeNode(_ id: String) throws { try Self.node(id) }
    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary { try Self.node(id); return Self.synth }

    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary {
        try Self.node(assignment.node)
        guard assignment.parameter == Self.gain.name else {
            throw ControlError(.unknownParameter, "no parameter '\(assignment.parameter)'", fix: "use master gain")
        }
        var gain = Self.gain
        gain.value = assignment.value
        return gain
    }

    func loadPatch(_ source: PatchSource) throws -> GraphSummary { throw ControlError(.invalidPatch, "the stub loads no patch") }
    func rules() throws -> [RuleSummary] { [] }
    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary] { rules }
    func mappings() throws -> [MappingSummary] { [] }
    func setMappings(_ text: String) throws -> [MappingSummary] { throw ControlError(.invalidPatch, "the stub maps nothing") }
    func learn(_ request: LearnRequest) throws {}
    func cancelLearn() throws {}
    func scenes() throws -> [SceneSummary] { [] }
    func switchScene(_ name: String) throws -> SceneSummary { throw ControlError(.unknownScene, "no scene '\(name)'") }
    func triggers() throws -> [TriggerSummary] { [] }
    func loadPreset(_ load: PresetLoad) throws -> NodeSummary { try Self.node(load.node); return Self.synth }
    func savePreset(_ save: PresetSave) throws -> PresetSummary { throw ControlError(.invalidValue, "no plugin node") }
    func fireTrigger(_ name: String) throws -> TriggerSummary { throw ControlError(.unknownTrigger, "no trigger '\(name)'") }
    func widgets() throws -> [WidgetSummary] { [] }
    func setWidget(_ name: String, to value: Double) throws -> WidgetSummary { try Self.widget(name) }
    func pressWidget(_ name: String) throws -> WidgetSummary { try Self.widget(name) }
    func releaseWidget(_ name: String) throws -> WidgetSummary { try Self.widget(name) }
    func transport(_ request: TransportRequest) throws -> TransportStatus { throw ControlError(.noSequence, "no sequence") }
    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary {
        throw ControlError(.failed, "the stub plays no audio")
    }

    func networkStatus() throws -> [NetworkSessionSummary] { [] }

    func networkConnect(_ host: String) throws {
        throw ControlError(.failed, "the stub keeps no network sessions")
    }

    func networkDisconnect(_ peer: String) throws {
        throw ControlError(.unknownPeer, "no session with '\(peer)'")
    }

    private static func port(_ connection: ConnectionSummary) throws {
        guard connection.source == keyboard.address || connection.source.hasPrefix(Endpoint.nodePrefix) else {
            throw ControlError(.unknownPort, "no port matches '\(connection.source)'", fix: "run 'midihub ports'")
        }
    }

    private static func widget(_ name: String) throws -> WidgetSummary {
        throw ControlError(.unknownWidget, "no widget '\(name)'", fix: "the stub shows no widgets")
    }

    private static func node(_ id: String) throws {
        guard id == synth.id else { throw ControlError(.unknownNode, "no node named '\(id)'") }
    }
}
