import ALSA
import Hub

/// Connections from midihub:out to the ports of external nodes. Kernel MIDI ports (USB
/// synths, snd-virmidi) open their device only while a sender is subscribed and drop events
/// from unconnected senders, so the daemon connects its output port to each external node's
/// port, as `aplaymidi` does. Events still go to each node's port directly: another node's
/// port, connected to midihub:out too, does not get them.
extension HubDaemon {
    /// Connects midihub:out to the port of every external node that has one, and breaks the
    /// links it made to ports no node uses any more (a removed node, an edited selector). A
    /// connection that already existed (made by a rule or by hand) is left to its owner.
    /// - Thread: under the lock.
    func linkExternalNodes() {
        let wanted = Set(router.graph.nodes.compactMap { node -> Connection? in
            guard case .external(let external) = node.body,
                  let address = ports.destination(for: external.port, excludingClient: client.clientID),
                  !JackPortTable.isJack(address) else { return nil }  // JACK nodes get their own output (JackBridge)
            return Connection(PortAddress(outPort.address), address)
        })
        var made = externalLinks.intersection(wanted)
        let unwanted = externalLinks.subtracting(wanted).filter(ports.connections.contains)
        for connection in unwanted.sorted() { apply(connection, connected: false, reason: "no external node uses it") }
        let missing = wanted.subtracting(ports.connections)
        for connection in missing.sorted() {
            apply(connection, connected: true, reason: "external node")
            made.insert(connection)
        }
        externalLinks = made
        if !unwanted.isEmpty || !missing.isEmpty { refreshPorts() }
    }
}
