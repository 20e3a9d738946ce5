import Dispatch
import Synchronization

@testable import Control

/// A `ControlHandler` with a small in-memory setup, so round trips change state that
/// later requests can see.
final class FakeDaemon: ControlHandler {
    struct State {
        var connections: [ConnectionSummary] = []
        var nodes: [NodeSummary] = [FakeDaemon.synth]
        var rules: [RuleSummary] = []
        var loadedPatches: [PatchSource] = []
        var mappings: [MappingSummary] = []
        var learning: LearnRequest?
    }

    struct Explosion: Error, CustomStringConvertible {
        var description: String { "the fake daemon exploded" }
    }

    static let keyboard = PortSummary(
        address: "20:0", client: 20, port: 0, clientName: "Virtual Raw MIDI 1-0", portName: "VirMIDI 1-0",
        direction: .duplex, kind: .hardware, card: 1, cardName: "VirMIDI", connectedTo: ["128:0"])
    static let jackPort = PortSummary(
        address: "jack:system:midi_capture_1", clientName: "system", portName: "midi_capture_1",
        direction: .source, kind: .app)

    static func gain(_ value: Double) -> ParameterSummary {
        ParameterSummary(id: 0, name: "gain", min: -60, max: 12, default: 0, unit: "decibels", value: value)
    }

    static let synth = NodeSummary(
        id: "lead", name: "midihub Synth", kind: "instrument", subtype: "syn1", manufacturer: "mdhb",
        version: "1.0.0", parameters: [gain(0), ParameterSummary(
            id: 1, name: "voices", direction: .output, min: nil, max: nil, default: nil, unit: "count", value: 3)])

    let state = Mutex(State())
    /// `patch.load` of `slowPatchPath` waits for this: a file on a stalled disk.
    let slowFile = DispatchSemaphore(value: 0)
    static let slowPatchPath = "/slow/disk/patch.yaml"
    /// `trigger.fire` of `holdingTrigger` holds the server's loop thread (a handler that takes
    /// its time): it signals `loopHeld`, then waits for `loopReleased`.
    let loopHeld = DispatchSemaphore(value: 0), loopReleased = DispatchSemaphore(value: 0)
    static let holdingTrigger = "hold the loop"

    func ports() throws -> [PortSummary] { [Self.keyboard, Self.jackPort] }

    func connections() throws -> [ConnectionSummary] { state.withLock { $0.connections } }

    func nodes() throws -> [NodeSummary] { state.withLock { $0.nodes } }

    func nodeTypes() throws -> [NodeSummary] { [Self.synth] }

    func connect(_ connection: ConnectionSummary) throws {
        if connection.source == "explode" { throw Explosion() }
        guard connection.source == "20:0" || connection.source.hasPrefix("node:") else {
            throw ControlError(.unknownPort, "no port matches '\(connection.source)'", fix: "run 'midihub ports'")
        }
        state.withLock { $0.connections.append(connection) }
    }

    func disconnect(_ connection: ConnectionSummary) throws {
        try state.withLock { state in
            guard let index = state.connections.firstIndex(of: connection) else {
                throw ControlError(.unknownPort, "\(connection.source) is not connected to \(connection.destination)")
            }
            state.connections.remove(at: index)
        }
    }

    func addNode(_ spec: NodeSpec) throws -> NodeSummary {
        guard spec.type == "synth" else { throw ControlError(.unknownNodeType, "no node type '\(spec.type)'") }
        var node = Self.synth
        node.id = spec.id ?? "synth\(state.withLock { $0.nodes.count })"
        node.parameters[0].value = spec.parameters?["gain"] ?? 0
        state.withLock { $0.nodes.append(node) }
        return node
    }

    func removeNode(_ id: String) throws {
        try state.withLock { state in
            guard let index = state.nodes.firstIndex(where: { $0.id == id }) else { throw Self.unknownNode(id) }
            state.nodes.remove(at: index)
        }
    }

    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary {
        try removeNode(id)
        var replacement = spec
        replacement.id = spec.id ?? id
        return try addNode(replacement)
    }

    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary {
        try state.withLock { state in
            guard let node = state.nodes.firstIndex(where: { $0.id == assignment.node }) else {
                throw Self.unknownNode(assignment.node)
            }
            guard let parameter = state.nodes[node].parameters.firstIndex(where: { $0.name == assignment.parameter })
            else { throw ControlError(.unknownParameter, "node '\(assignment.node)' has no parameter '\(assignment.parameter)'") }
            let info = state.nodes[node].parameters[parameter]
            let value = try assignment.number(among: info.choices)
            guard info.direction == .input, let min = info.min, let max = info.max, (min...max).contains(value)
            else { throw ControlError(.invalidValue, "\(value) is outside \(info.name)'s range") }
            state.nodes[node].parameters[parameter].value = value
            return state.nodes[node].parameters[parameter]
        }
    }

    func loadPatch(_ source: PatchSource) throws -> GraphSummary {
        if source.path == Self.slowPatchPath { slowFile.wait() }
        if source.text?.contains("bad") == true {
            throw ControlError(.invalidPatch, "patch:3:7: unknown node type 'synthh'", fix: "use one of: synth")
        }
        return state.withLock { state in
            state.loadedPatches.append(source)
            return GraphSummary(nodes: state.nodes, connections: state.connections, rules: state.rules)
        }
    }

    func rules() throws -> [RuleSummary] { state.withLock { $0.rules } }

    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary] {
        state.withLock { state in
            state.rules = rules
            return state.rules
        }
    }

    func mappings() throws -> [MappingSummary] { state.withLock { $0.mappings } }

    /// Takes "cc N -> NODE.PARAMETER" lines (the real daemon reads YAML).
    func setMappings(_ text: String) throws -> [MappingSummary] {
        let mappings = text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            let target = parts[3].split(separator: ".")
            return MappingSummary(control: "\(parts[0]) \(parts[1])", mode: "absolute", pickup: "jump", pass: false,
                                  targets: [MappingTargetSummary(node: String(target[0]), parameter: String(target[1]),
                                                                 low: -60, high: 12, curve: "linear", invert: false)])
        }
        return state.withLock { state in
            state.mappings = mappings
            return mappings
        }
    }

    func learn(_ request: LearnRequest) throws {
        guard request.node == Self.synth.id else { throw Self.unknownNode(request.node) }
        state.withLock { $0.learning = request }
    }

    func cancelLearn() throws {
        state.withLock { $0.learning = nil }
    }

    static let verse = SceneSummary(name: "verse", program: 0, current: false,
                                    values: [ParameterAssignment(node: "lead", parameter: "gain", value: -6)])

    func scenes() throws -> [SceneSummary] { [Self.verse] }

    static let panic = TriggerSummary(name: "panic", action: "all notes off", state: "normal")

    func triggers() throws -> [TriggerSummary] { [Self.panic] }

    /// One slider on the lead's gain, at the gain's value now.
    func widgets() throws -> [WidgetSummary] {
        let gain = state.withLock { $0.nodes.first { $0.id == "lead" }?.parameters.first { $0.name == "gain" }?.value }
        return [WidgetSummary(kind: "slider", title: "Gain", target: "lead.gain", min: -60, max: 12, unit: "decibels", value: gain)]
    }

    func setWidget(_ name: String, to value: Double) throws -> WidgetSummary {
        _ = try widget(named: name)
        _ = try setParameter(ParameterAssignment(node: "lead", parameter: "gain", value: value))
        return try widget(named: name)
    }

    /// A touch on the slider: nothing moves.
    func pressWidget(_ name: String) throws -> WidgetSummary { try widget(named: name) }

    func releaseWidget(_ name: String) throws -> WidgetSummary { try widget(named: name) }

    private func widget(named name: String) throws -> WidgetSummary {
        guard let widget = try widgets().first(where: { $0.target == name || $0.title == name }) else {
            throw ControlError(.unknownWidget, "no widget '\(name)'", fix: "use one of lead.gain")
        }
        return widget
    }

    func transport(_ request: TransportRequest) throws -> TransportStatus {
        guard request.action == .status else { throw ControlError(.noSequence, "no sequence loaded") }
        return TransportStatus(state: "stopped", song: nil, position: "1:1", seconds: 0, duration: 0, tempo: 120,
                               tempoOverride: false, loop: nil)
    }

    func loadPreset(_ load: PresetLoad) throws -> NodeSummary {
        throw ControlError(.invalidValue, "node '\(load.node)' is no LV2 plugin: presets are a plugin's")
    }

    func savePreset(_ save: PresetSave) throws -> PresetSummary {
        throw ControlError(.invalidValue, "node '\(save.node)' is no LV2 plugin: presets are a plugin's")
    }

    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary {
        throw ControlError(.failed, "the daemon plays no audio")
    }

    func networkStatus() throws -> [NetworkSessionSummary] { [] }

    func networkConnect(_ host: String) throws {
        throw ControlError(.failed, "the daemon keeps no network sessions")
    }

    func networkDisconnect(_ peer: String) throws {
        throw ControlError(.unknownPeer, "no session with '\(peer)'")
    }

    func fireTrigger(_ name: String) throws -> TriggerSummary {
        if name == Self.holdingTrigger {
            loopHeld.signal()
            loopReleased.wait()
        }
        guard name == Self.panic.name else { throw ControlError(.unknownTrigger, "no trigger '\(name)'") }
        return Self.panic
    }

    func switchScene(_ name: String) throws -> SceneSummary {
        guard name == Self.verse.name else { throw ControlError(.unknownScene, "no scene '\(name)'") }
        var scene = Self.verse
        scene.current = true
        return scene
    }

    private static func unknownNode(_ id: String) -> ControlError {
        ControlError(.unknownNode, "no node '\(id)'", fix: "run 'midihub nodes' to list nodes")
    }
}
