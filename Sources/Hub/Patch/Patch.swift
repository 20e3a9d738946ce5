import Foundation
import RenderCore
import UserFiles
import Yams

/// A whole setup as written in a patch file: the graph, the connection rules and the
/// controller mappings.
/// See docs/patch-format.md.
///
/// Loading validates everything first and either returns a complete `Patch` or throws a
/// ``PatchError``; the caller's running setup is never touched.
///
/// - Thread: any (a plain value); loading runs on the control side.
public struct Patch: Hashable, Sendable {
    public var graph: HubGraph
    public var rules: [ConnectionRule]
    /// The hub's tempo in quarter notes per minute (the arpeggiator's grid, tempo-synced effects).
    public var tempo: Double
    /// Controllers to parameters (docs/mappings.md).
    public var mappings: [Mapping]
    /// Named parameter snapshots (docs/mappings.md#scenes).
    public var scenes: [Scene]
    /// The patch's own triggers (the hub's `Trigger.system` are not listed).
    public var triggers: [Trigger]
    /// What a remote shows (docs/mappings.md#widgets).
    public var widgets: [Widget]
    /// The RTP-MIDI sessions the daemon keeps (docs/network.md) and where it takes OSC (`osc:`,
    /// docs/osc.md); `.none` when the patch has neither.
    public var network: NetworkSettings
    /// How the hub's transport goes with JACK's (`transport: follow` or `lead`); nil: on its own.
    public var jackTransport: JackTransportMode?

    /// Tempos a patch or the control socket may set.
    public static let tempoRange: ClosedRange<Double> = 20...400
    public static let defaultTempo: Double = 120
    /// The pseudo-node whose parameter `tempo` is the hub's tempo (unless a node has that name).
    public static let transportNode: NodeID = "transport"
    /// The pseudo-node whose parameter `program` switches to the scene of that program.
    public static let sceneNode: NodeID = "scene"
    /// The scene pseudo-node's parameter: a mapping to it switches scenes by program (0…127).
    public static let sceneProgramParameter = ParameterInfo(id: 0, name: "program", range: 0...127, defaultValue: 0,
                                                            unit: .generic)
    /// The pseudo-node whose parameters are the triggers, by name: a mapping to
    /// `trigger.NAME` fires it when its value reaches the top half (a press).
    public static let triggerNode: NodeID = "trigger"
    /// The tempo as a parameter (of the pseudo-node `transport`): what mappings and `parameters.set` move.
    public static let tempoParameter = ParameterInfo(id: 0, name: "tempo",
                                                     range: Float(tempoRange.lowerBound)...Float(tempoRange.upperBound),
                                                     defaultValue: Float(defaultTempo), unit: .generic)

    public init(graph: HubGraph = .empty, rules: [ConnectionRule] = [], tempo: Double = Patch.defaultTempo,
                mappings: [Mapping] = [], scenes: [Scene] = [], triggers: [Trigger] = [], widgets: [Widget] = [],
                network: NetworkSettings = .none, jackTransport: JackTransportMode? = nil) {
        self.graph = graph
        self.rules = rules
        self.tempo = tempo
        self.mappings = mappings
        self.scenes = scenes
        self.triggers = triggers
        self.widgets = widgets
        self.network = network
        self.jackTransport = jackTransport
    }

    /// The top-level keys a patch may have.
    static let knownKeys = ["version", "name", "description", "tempo", "nodes", "routes", "rules", "mappings", "scenes", "triggers",
                             "widgets", "pads", "network", "osc", "transport"]

    /// The largest patch file read: 1 MiB (a patch of a thousand nodes is under 100 KB; a
    /// megabyte of YAML parses in a fraction of a second).
    public static let sizeLimit = 1 << 20

    /// Reads and validates the patch at `path`.
    /// - Throws: ``PatchError`` with the file, line and column of the first problem.
    /// - Thread: control (reads the file).
    public static func load(contentsOf path: String, registry: NodeRegistry) throws(PatchError) -> Patch {
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, what: "a patch", limit: sizeLimit)
        } catch {
            throw PatchError(file: path, line: 0, column: 0, reason: error.problem, fix: error.fix)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw PatchError(file: path, line: 0, column: 0, reason: "'\(path)' is not UTF-8 text, not a patch",
                             fix: "give a YAML patch saved as UTF-8")
        }
        return try parse(yaml: text, file: path, registry: registry)
    }

    /// Parses and validates patch text; `file` is used in error messages.
    /// - Throws: ``PatchError``.
    /// - Thread: control.
    public static func parse(yaml text: String, file: String, registry: NodeRegistry) throws(PatchError) -> Patch {
        let reader = PatchReader(file: file, registry: registry)
        guard let root = try compose(text, reader: reader) else {
            throw reader.error(at: nil, "the patch is empty", fix: "start from an example in patches/")
        }
        return try reader.patch(root)
    }

    /// Parses a `mappings:` list on its own (`mappings.set`), its targets checked against the
    /// nodes of `graph`; empty text is no mappings.
    /// - Throws: ``PatchError``.
    /// - Thread: any.
    public static func parseMappings(yaml text: String, file: String, graph: HubGraph,
                                     registry: NodeRegistry) throws(PatchError) -> [Mapping] {
        let reader = PatchReader(file: file, registry: registry)
        guard let root = try compose(text, reader: reader) else { return [] }
        return try reader.mappings(root, nodes: graph.nodes)
    }

    /// The YAML tree of `text`, `nil` when it holds nothing.
    private static func compose(_ text: String, reader: PatchReader) throws(PatchError) -> YAMLNode? {
        if let excess = PatchNesting.firstExcess(in: text) {
            throw PatchError(file: reader.file, line: excess.line, column: excess.column, reason: excess.reason, fix: excess.fix)
        }
        do {
            return try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw reader.error(error)
        } catch {
            throw reader.error(at: nil, "cannot parse YAML: \(error)", fix: "check indentation and quoting")
        }
    }
}
