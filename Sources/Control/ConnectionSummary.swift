/// A MIDI connection from one endpoint to another. Endpoints are written as the CLI
/// accepts them: `client:port`, client or port names, `jack:NAME`, or a node id
/// prefixed with `node:` (e.g. `node:lead`).
///
/// - Thread: any (a plain value).
public struct ConnectionSummary: Hashable, Sendable, Codable {
    public var source: String
    public var destination: String

    public init(source: String, destination: String) {
        self.source = source
        self.destination = destination
    }
}

/// A connection rule: which ports the daemon connects by itself when they appear,
/// or which connections it must never make. The last matching rule wins.
/// `source` and `destination` are port selectors in the rule syntax of the `Hub`
/// module: `[hardware:|app:|any:]PATTERN`, PATTERN being `*` or `"client:port"` with
/// `*`/`?` globs or `/regex/` halves, e.g. `hardware:*`, `"Launchkey*:*"`, `24:0`.
///
/// - Thread: any (a plain value).
public struct RuleSummary: Hashable, Sendable, Codable, CustomStringConvertible {
    /// `connect` makes matching connections; `disallow` forbids them.
    public enum Action: String, Hashable, Sendable, Codable {
        case connect, disallow
    }

    public var action: Action
    public var source: String
    public var destination: String

    public init(action: Action, source: String, destination: String) {
        self.action = action
        self.source = source
        self.destination = destination
    }

    /// The rule as one line of rule text, e.g. `connect hardware:* -> "midihub:synth"`.
    public var description: String { "\(action.rawValue) \(source) -> \(destination)" }
}

/// The daemon's whole setup after a patch load: nodes, connections and rules.
///
/// - Thread: any (a plain value).
public struct GraphSummary: Hashable, Sendable, Codable {
    public var nodes: [NodeSummary]
    public var connections: [ConnectionSummary]
    public var rules: [RuleSummary]

    public init(nodes: [NodeSummary], connections: [ConnectionSummary], rules: [RuleSummary]) {
        self.nodes = nodes
        self.connections = connections
        self.rules = rules
    }
}
