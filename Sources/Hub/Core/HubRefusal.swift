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

    public static func outOfRange(_ name: String, _ info: ParameterInfo) -> HubRefusal {
        HubRefusal(.invalidValue, "\(name) must lie in \(info.range.lowerBound)…\(info.range.upperBound)",
                   fix: "give a value in that range")
    }
}
