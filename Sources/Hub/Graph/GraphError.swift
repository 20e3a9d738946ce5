/// Why a graph or an edit was refused. ``description`` is one line: the reason and the fix.
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
    case tooManyNodes(Int)

    public var description: String { "\(reason) (fix: \(fix))" }

    /// What is wrong.
    public var reason: String {
        switch self {
        case .duplicateNode(let id): "node '\(id)' is defined twice"
        case .unknownNode(let id, nil): "no node named '\(id)'"
        case .unknownNode(let id, let route?): "route \(route) names an unknown node '\(id)'"
        case .duplicateRoute(let route): "route \(route) is listed twice"
        case .unknownRoute(let route): "there is no route \(route)"
        case .producesNothing(let route, let kind): "route \(route): '\(route.from)' is an \(kind) and sends nothing"
        case .signalMismatch(let route, let sends, let kind, let accepts):
            "route \(route): '\(route.from)' sends \(sends.rawValue) but '\(route.to)' (\(kind)) "
                + (accepts.isEmpty ? "takes no input" : "takes \(accepts.map(\.rawValue).sorted().joined(separator: " and ")) only")
        case .cycle(let path): "routes form a loop \(path.joined(separator: " -> "))"
        case .badChannel(let route, let channel): "route \(route) lists channel \(channel)"
        case .tooManyNodes(let count): "\(count) nodes; a hub holds at most \(HubGraph.maxNodes)"
        }
    }

    /// How to fix it.
    public var fix: String {
        switch self {
        case .duplicateNode: "give each node its own name"
        case .unknownNode(_, nil): "check the name with `midihub nodes`"
        case .unknownNode(let id, _?): "define '\(id)' under nodes, or correct the name"
        case .duplicateRoute: "keep one"
        case .unknownRoute: "list the routes with `midihub graph`"
        case .producesNothing: "route from a source, processor or instrument"
        case .signalMismatch(_, let sends, _, _):
            sends == .midi ? "send MIDI to a processor, instrument or external node" : "send audio to an effect or the output"
        case .cycle: "remove one of these routes"
        case .badChannel: "channels are 1…16"
        case .tooManyNodes: "split the setup over several patches, or remove nodes"
        }
    }
}
