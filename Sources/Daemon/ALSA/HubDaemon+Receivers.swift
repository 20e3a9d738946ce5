import ALSA
import Control
import Hub

/// How other programs' ALSA ports keep up with what the hub sends them (`ReceiverQueues`):
/// losses reported, each external node's receiver shown in `nodes.list`.
extension HubDaemon {
    /// Logs each receiver that lost messages (one line naming the port, the count and the fix)
    /// and publishes `node-overloaded` for each external node that plays to it.
    /// - Thread: owner.
    func reportReceiverLosses(_ losses: [ReceiverQueues.Loss]) {
        for loss in losses {
            let port = ports.descriptor(at: PortAddress(loss.address))
            let name = port.map { "'\($0.clientName):\($0.portName)' (\(loss.address))" } ?? "port \(loss.address)"
            log.warning("\(name) stopped taking MIDI: \(loss.new) messages dropped for it alone, \(loss.total) in all; "
                + "the other receivers go on (fix: resume or restart that program; it gets what waits in its queue)")
            for node in externalNodes(at: loss.address) {
                log.publish(.nodeOverloaded(node: node, port: "\(loss.address)", count: loss.total))
            }
        }
    }

    /// How the receiver of the external node `id` keeps up; `nil` when it takes everything
    /// (or the node has no ALSA port).
    /// - Thread: owner.
    func receiverStatus(ofNode id: NodeID) -> ReceiverStatus? {
        let destinations = routeCache.destinations(ports: ports, router: core.router, ownClient: client.clientID)
        guard let index = core.router.graph.nodes.firstIndex(where: { $0.id == id }), index < destinations.count,
              case .alsa(let address) = destinations[index] else { return nil }
        let status = receivers.status(of: address)
        return status.waiting == 0 && status.dropped == 0 ? nil : ReceiverStatus(waiting: status.waiting, dropped: status.dropped)
    }

    /// The external nodes whose MIDI goes to the ALSA port `address`.
    private func externalNodes(at address: SeqAddress) -> [NodeID] {
        let destinations = routeCache.destinations(ports: ports, router: core.router, ownClient: client.clientID)
        return zip(core.router.graph.nodes, destinations).compactMap { node, destination in
            if case .alsa(address) = destination { node.id } else { nil }
        }
    }
}
