import Control
import Hub
import Plugins

/// What `midihub nodes`, `graph` and `rules` show: the running daemon's setup (asked over
/// the control socket), or, when no daemon runs or `--patch` is given, a patch's setup
/// (the embedded default without one) — the same summaries either way. `listing` does the
/// same for one list (`mappings`, `scene`, `trigger`, `widgets` ask only for theirs).
///
/// - Thread: control (the calling thread: the CLI's main thread).
public struct SetupView {
    public var nodes: [NodeSummary]
    /// Port connections (daemon only) and graph routes as `node:` endpoints.
    public var connections: [ConnectionSummary]
    public var rules: [RuleSummary]
    /// Where it came from, for a heading: `daemon`, a patch path, or `embedded default`.
    public var origin: String

    /// The running daemon's nodes, connections and rules, or, when none runs or `patchPath`
    /// is given, that patch's (or the embedded default's).
    /// - Throws: `PatchError` for a bad patch, `ControlClientError` when the daemon
    ///   answers badly (a protocol version mismatch, a refusal).
    public static func load(patchPath: String?, socket: ControlSocketPath = .resolve()) throws -> SetupView {
        try listing(patchPath: patchPath, socket: socket,
                    fromDaemon: { client in
                        SetupView(nodes: try client.nodes(), connections: try client.connections(), rules: try client.rules(),
                                  origin: "daemon")
                    },
                    fromPatch: standalone)
    }

    /// What `fromDaemon` asks the running daemon for; when none runs or `patchPath` is given,
    /// what `fromPatch` makes of that patch (or of the embedded default), named by its origin.
    /// - Throws: `PatchError` for a bad patch, `ControlClientError` when the daemon answers badly.
    public static func listing<Value>(patchPath: String?, socket: ControlSocketPath = .resolve(),
                                      fromDaemon: (ControlClient) throws -> Value,
                                      fromPatch: (Patch, String) -> Value) throws -> Value {
        if let patchPath {
            return fromPatch(try Patch.load(contentsOf: patchPath, registry: NodeTypes.registry.with(plugins: InstalledPlugins())),
                             patchPath)
        }
        do {
            let client = try ControlClient(path: socket, timeout: 10)
            try client.hello(client: "midihub cli")
            return try fromDaemon(client)
        } catch let error as ControlClientError where error.isDaemonNotRunning {
            return fromPatch(DefaultSetup.patch, "embedded default")
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
                  rules: GraphSummaries.rules(patch.rules), origin: origin)
    }
}
