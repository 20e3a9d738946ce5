/// One end of a connection as the control protocol and the CLI write it, parsed once:
/// an ALSA port (`20:0`, a client or port name or prefix, resolved against the port
/// list), a JACK port (`jack:CLIENT:PORT`), or a node of the hub's graph (`node:ID`).
///
/// - Thread: any (a plain value).
public enum Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// An ALSA sequencer port as the user named it (address or name).
    case alsa(String)
    /// A JACK MIDI port, `CLIENT:PORT` as JACK spells it.
    case jack(String)
    /// A node of the graph, by id.
    case node(String)

    public static let jackPrefix = "jack:"
    public static let nodePrefix = "node:"

    /// Reads `text`: `node:ID` a node, `jack:CLIENT:PORT` a JACK port, anything else an ALSA port.
    public init(parsing text: String) {
        if text.hasPrefix(Self.nodePrefix) {
            self = .node(String(text.dropFirst(Self.nodePrefix.count)))
        } else if text.hasPrefix(Self.jackPrefix) {
            self = .jack(String(text.dropFirst(Self.jackPrefix.count)))
        } else {
            self = .alsa(text)
        }
    }

    /// The endpoint as written on the wire.
    public var description: String {
        switch self {
        case .alsa(let name): name
        case .jack(let name): Self.jackPrefix + name
        case .node(let id): Self.nodePrefix + id
        }
    }

    /// The node id, for a node.
    public var nodeID: String? {
        if case .node(let id) = self { id } else { nil }
    }
}

extension ConnectionSummary {
    /// A connection between two typed endpoints.
    public init(from source: Endpoint, to destination: Endpoint) {
        self.init(source: source.description, destination: destination.description)
    }

    /// Where the connection starts, parsed.
    public var sourceEndpoint: Endpoint { Endpoint(parsing: source) }

    /// Where it ends, parsed.
    public var destinationEndpoint: Endpoint { Endpoint(parsing: destination) }
}
