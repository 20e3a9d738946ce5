import ALSA
import Hub

/// What routing an event needs to know about ports, resolved once per port-list or graph
/// change instead of per event: which source nodes a sending port feeds, and which ALSA
/// port each external node plays to. Selector matching (string work) happens here only.
///
/// - Thread: the state's owner, the MIDI input thread (a plain value).
struct RouteCache {
    private var senders: [PortAddress: MIDIRouter.Sender] = [:]
    private var destinations: [ExternalDestination?] = []
    /// The router revision `destinations` was resolved for (`nil`: resolve again).
    private var destinationsRevision: Int?

    /// Forgets everything resolved: the port list changed.
    mutating func portsChanged() {
        senders = [:]
        destinationsRevision = nil
    }

    /// The source nodes the port at `address` feeds; `nil` when the port is not in `ports`.
    mutating func sender(at address: PortAddress, ports: PortCatalog, router: inout MIDIRouter) -> MIDIRouter.Sender? {
        if let known = senders[address], router.isCurrent(known) { return known }
        guard let port = ports.sender(at: address) else { return nil }
        let sender = router.sender(for: port)
        senders[address] = sender
        return sender
    }

    /// The port (ALSA or JACK) of each external node of `router`'s graph that has one in `ports`
    /// (never one of midihub's own, `ownClient`), by node index; `nil` for other nodes.
    mutating func destinations(ports: PortCatalog, router: MIDIRouter, ownClient: UInt8) -> [ExternalDestination?] {
        if destinationsRevision != router.revision {
            destinations = router.graph.nodes.map { node in
                guard case .external(let external) = node.body,
                      let port = ports.destination(for: external.port, excludingClient: ownClient) else { return nil }
                return ExternalDestination(port)
            }
            destinationsRevision = router.revision
        }
        return destinations
    }
}

extension PortCatalog {
    /// The first port, ALSA or JACK, that `selector` matches and that receives MIDI (not on `client`).
    func destination(for selector: PortSelector, excludingClient client: UInt8) -> PortAddress? {
        descriptors.first { $0.direction.canReceive && $0.address.client != Int(client) && selector.matches($0) }?.address
    }
}
