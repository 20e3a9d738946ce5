import Control
import Hub

/// What `midihub nodes`, `graph`, `rules`, `mappings`, `scene`, `trigger` and `widgets` show: the running daemon's setup (asked over
/// the control socket), or, when no daemon runs or `--patch` is given, a patch's setup
/// (the embedded default without one) — the same summaries either way.
///
/// - Thread: the calling thread (the CLI's main thread).
public struct SetupView {
    public var nodes: [NodeSummary]
    /// Port connections (daemon only) and graph routes as `node:` endpoints.
    public var connections: [ConnectionSummary]
    public var rules: [RuleSummary]
    public var mappings: [MappingSummary]
    public var scenes: [SceneSummary]
    public var triggers: [TriggerSummary]
    public var widgets: [WidgetSummary]
    /// Where it came from, for a heading: `daemon`, a patch path, or `embedded default`.
    public var origin: String

    /// - Throws: `PatchError` for a bad patch, `ControlClientError` when the daemon
    ///   answers badly (a protocol version mismatch, a refusal).
    public static func load(patchPath: String?, socket: ControlSocketPath = .resolve()) throws -> SetupView {
        if let patchPath {
            return standalone(try Patch.load(contentsOf: patchPath, registry: NodeCatalog.registry), origin: patchPath)
        }
        do {
            let client = try ControlClient(path: socket, timeout: 10)
            try client.hello(client: "midihub cli")
            return SetupView(nodes: try client.nodes(), connections: try client.connections(), rules: try client.rules(),
                             mappings: try client.mappings(), scenes: try client.scenes(), triggers: try client.triggers(),
                             widgets: try client.widgets(), origin: "daemon")
        } catch where error.isDaemonNotRunning {
            return standalone(DefaultSetup.patch, origin: "embedded default")
        }
    }

    /// Every node type, from the running daemon (`nodes.types`) or, with none, from this
    /// build's registry (the same list).
    /// - Throws: `ControlClientError` when a daemon runs but does not answer.
    public static func nodeTypes(socket: ControlSocketPath = .resolve()) throws -> [NodeSummary] {
        do {
            let client = try ControlClient(path: socket, timeout: 10)
            try client.hello(client: "midihub cli")
            return try client.nodeTypes()
        } catch where error.isDaemonNotRunning {
            return GraphSummaries.types()
        }
    }

    static func standalone(_ patch: Patch, origin: String) -> SetupView {
        SetupView(nodes: GraphSummaries.nodes(patch.graph), connections: GraphSummaries.routes(patch.graph),
                  rules: GraphSummaries.rules(patch.rules), mappings: MappingSummaries.summaries(patch),
                  scenes: MappingSummaries.scenes(patch.scenes, current: nil), triggers: MappingSummaries.triggers(patch),
                  widgets: MappingSummaries.widgets(patch), origin: origin)
    }
}
