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
///
/// - Thread: any (a plain value).
public struct RuleSummary: Hashable, Sendable, Codable {
    /// `connect` makes matching connections; `disallow` forbids them.
    public enum Action: String, Hashable, Sendable, Codable {
        case connect, disallow
    }

    public var action: Action
    public var source: PortPattern
    public var destination: PortPattern

    public init(action: Action, source: PortPattern, destination: PortPattern) {
        self.action = action
        self.source = source
        self.destination = destination
    }
}

/// Matches ports by a name pattern (shell-style `*` and `?`, case-insensitive, against
/// `client name:port name`, the address or a node id) and optionally by kind.
///
/// - Thread: any (a plain value).
public struct PortPattern: Hashable, Sendable, Codable {
    public var name: String
    /// Only hardware or only app ports; `nil` matches both.
    public var kind: PortSummary.Kind?

    public init(name: String, kind: PortSummary.Kind? = nil) {
        self.name = name
        self.kind = kind
    }
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
