import ALSA
import Hub

/// Connections from midihub:out to the ports of external nodes. Kernel MIDI ports (USB
/// synths, snd-virmidi) open their device only while a sender is subscribed and drop events
/// from unconnected senders, so the daemon connects its output port to each external node's
/// port, as `aplaymidi` does. Events still go to each node's port directly: another node's
/// port, connected to midihub:out too, does not get them. An external processor's sending
/// ports are connected to midihub:in, so that what it sends back enters the graph at its node;
/// so are the sending ports of the node whose clock the transport follows (`clock: follow`).
/// A controller that mappings show values on (`feedbackPorts`) is connected from midihub:out
/// as an external node is, and shown its values once connected.
extension HubDaemon {
    /// Connects midihub:out to the port of every external node that has one, and an external
    /// processor's sending ports to midihub:in; breaks the links it made that no node uses any
    /// more (a removed node, an edited selector). A connection that already existed (made by
    /// a rule, by hand, or by the processor itself) is left to its owner.
    /// - Thread: owner.
    func linkExternalNodes() {
        let externals = core.snapshot.graph.nodes.compactMap { node -> ExternalNode? in
            if case .external(let external) = node.body { external } else { nil }
        }
        let feedback = core.snapshot.mappings.flatMap(feedbackPorts)
        let outbound = externals.compactMap { external -> Connection? in
            guard let address = ports.destination(for: external.port, excludingClient: client.clientID),
                  !JackPortTable.isJack(address) else { return nil }  // JACK nodes get their own output (JackBridge)
            return Connection(PortAddress(outPort.address), address)
        } + (feedback + core.snapshot.triggers.flatMap { trigger -> [PortDescriptor] in
            if case .send(let port, _) = trigger.action { triggerPorts(port) } else { [] }
        }).map { Connection(PortAddress(outPort.address), $0.address) }
        let returns = ports.descriptors.filter { port in
            port.address.client != client.clientID && !JackPortTable.isJack(port.address)
                && externals.contains { $0.sendsBack(from: port) || port.direction.canSend && $0.leadsClock(from: port) }
        }.map { Connection($0.address, PortAddress(inPort.address)) }
        let wanted = Set(outbound + returns)
        var made = externalLinks.intersection(wanted)
        let unwanted = externalLinks.subtracting(wanted).filter(ports.connections.contains)
        for connection in unwanted.sorted() { apply(connection, connected: false, reason: "no external node uses it") }
        let missing = wanted.subtracting(ports.connections)
        for connection in missing.sorted() {
            let controller = feedback.first { $0.address == connection.destination }
            apply(connection, connected: true, reason: controller == nil ? "external node" : "feedback to a controller")
            made.insert(connection)
            if let controller { showValues(toConnected: controller) }
        }
        externalLinks = made
        if !unwanted.isEmpty || !missing.isEmpty { refreshPorts() }
    }
}
