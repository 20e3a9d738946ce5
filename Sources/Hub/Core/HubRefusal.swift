import RenderCore

/// Why `HubCore` refused a command; nothing changed. One line: the problem and the fix.
///
/// - Thread: any (a plain value).
public struct HubRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case unknownNode
        case unknownParameter
        case invalidValue
        case unknownScene
        case unknownTrigger
        case triggerDisabled
        case noSequence
        case unknownPosition
        case followingClock
        case badParams
        case unknownWidget
        /// A gesture on a widget that only shows a value (a label, a meter).
        case readOnly
        /// A request prepared against a snapshot of the graph that was rebuilt since: prepare
        /// it again against the current one.
        case stale
    }

    public var kind: Kind
    public var message: String
    public var fix: String?

    public init(_ kind: Kind, _ message: String, fix: String? = nil) {
        self.kind = kind
        self.message = message
        self.fix = fix
    }

    public var description: String {
        fix.map { "\(message) (fix: \($0))" } ?? message
    }

    public static func unknownNode(_ id: NodeID) -> HubRefusal {
        HubRefusal(.unknownNode, "no node '\(id)'", fix: "run 'midihub nodes' to list nodes")
    }

    public static func unknownParameter(_ name: String, of id: NodeID, known: [ParameterInfo]) -> HubRefusal {
        HubRefusal(.unknownParameter, "node '\(id)' has no parameter '\(name)'",
                   fix: known.isEmpty ? "it has no parameters" : "use one of \(known.map(\.name).joined(separator: ", "))")
    }

    /// A graph edit that does not fit the graph.
    public init(_ error: GraphError) {
        let kind: Kind = if case .unknownNode = error { .unknownNode } else { .badParams }
        self.init(kind, error.reason, fix: error.fix)
    }

    /// `what` was checked against a graph that was rebuilt since.
    public static func stale(_ what: String) -> HubRefusal {
        HubRefusal(.stale, "the graph changed while \(what) were checked against it", fix: "send the request again")
    }

    public static func outOfRange(_ name: String, _ info: ParameterInfo) -> HubRefusal {
        HubRefusal(.invalidValue, "\(name) must lie in \(info.range.lowerBound)…\(info.range.upperBound)",
                   fix: "give a value in that range")
    }
}
