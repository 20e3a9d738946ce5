/// Why a graph or an edit was refused. Each description is one line with the fix.
///
/// - Thread: any (a plain value).
public enum GraphError: Error, Hashable, Sendable, CustomStringConvertible {
    case duplicateNode(NodeID)
    case unknownNode(NodeID, route: Route?)
    case duplicateRoute(Route)
    case unknownRoute(Route)
    case producesNothing(Route, kind: String)
    case signalMismatch(Route, sends: Signal, toKind: String, accepts: Set<Signal>)
    case cycle([NodeID])
    case badChannel(Route, Int)

    public var description: String {
        switch self {
        case .duplicateNode(let id):
            "node '\(id)' is defined twice (fix: give each node its own name)"
        case .unknownNode(let id, nil):
            "no node named '\(id)' (fix: check the name with `midihub nodes`)"
        case .unknownNode(let id, let route?):
            "route \(route) names an unknown node '\(id)' (fix: define '\(id)' under nodes, or correct the name)"
        case .duplicateRoute(let route):
            "route \(route) is listed twice (fix: keep one)"
        case .unknownRoute(let route):
            "there is no route \(route) (fix: list the routes with `midihub graph`)"
        case .producesNothing(let route, let kind):
            "route \(route): '\(route.from)' is an \(kind) and sends nothing (fix: route from a source, processor or instrument)"
        case .signalMismatch(let route, let sends, let kind, let accepts):
            "route \(route): '\(route.from)' sends \(sends.rawValue) but '\(route.to)' (\(kind)) "
                + (accepts.isEmpty ? "takes no input" : "takes \(accepts.map(\.rawValue).sorted().joined(separator: " and ")) only")
                + " (fix: \(sends == .midi ? "send MIDI to a processor, instrument or external node" : "send audio to an effect or the output"))"
        case .cycle(let path):
            "routes form a loop \(path.joined(separator: " -> ")) (fix: remove one of these routes)"
        case .badChannel(let route, let channel):
            "route \(route) lists channel \(channel) (fix: channels are 1…16)"
        }
    }
}
