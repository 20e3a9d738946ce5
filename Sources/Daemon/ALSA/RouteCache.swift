import ALSA
import Hub

/// Which port (ALSA or JACK) each external node plays to, resolved once per port-list or graph
/// change instead of per event (selector matching is string work). The core resolves which
/// source nodes a sending port feeds the same way (`HubCore.sender(at:)`).
///
/// - Thread: owner (the state's owner, the MIDI input thread); a plain value.
struct RouteCache {
    private var destinations: [ExternalDestination?] = []
    /// The graph revision `destinations` was resolved for (`nil`: resolve again).
    private var destinationsRevision: Int?

    /// Forgets everything resolved: the port list changed.
    mutating func portsChanged() {
        destinationsRevision = nil
    }

    /// The port (ALSA or JACK) of each external node of the graph of `revision` that has one
    /// in `ports` (never one of midihub's own, `ownClient`), by node index; `nil` for other
    /// nodes. `ports` and `graph` are read only when the revision is new (passing the catalog
    /// itself would copy it, retaining each part, on every call).
    mutating func destinations(ports: () -> PortCatalog, revision: Int, graph: () -> HubGraph,
                               ownClient: UInt8) -> [ExternalDestination?] {
        if destinationsRevision != revision {
            let ports = ports()
            destinations = graph().nodes.map { node in
                guard case .external(let external) = node.body,
                      let port = ports.destination(for: external.port, excludingClient: ownClient) else { return nil }
                return ExternalDestination(port)
            }
            destinationsRevision = revision
        }
        return destinations
    }
}

/// - Thread: any (a plain value).
extension PortCatalog {
    /// The first port, ALSA or JACK, that `selector` matches and that receives MIDI (not on `client`).
    func destination(for selector: PortSelector, excludingClient client: UInt8) -> PortAddress? {
        descriptors.first { $0.direction.canReceive && $0.address.client != Int(client) && selector.matches($0) }?.address
    }
}
