import MIDICore
import ALSA
import Control
import Hub

/// Ports coming and going, rule reconciliation, connections made by hand.
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Re-reads the port list and hands it to the core; `changed`: announcements came since
    /// the last listing (the core reports the ports that left and appeared).
    /// - Thread: owner.
    func refreshPorts(changed: Bool = false) {
        do {
            ports.update(try client.ports())
            routeCache.portsChanged()
        } catch {
            log.error("cannot list the sequencer ports: \(error)")
        }
        ports.updateJack(jack.descriptors, connections: jack.connections)
        feed(.portsListed(ports.descriptors, directSenders: Array(ports.directSenders.values), connections: ports.connections,
                          changed: changed, at: HostTime.now()))
    }

    /// Reacts to a System announcement. - Thread: owner (the MIDI input thread).
    func handle(_ announcement: SeqAnnouncement) {
        switch announcement {
        case .portStart, .portExit, .clientExit, .portChange, .clientChange, .clientStart:
            portsDirty = true
        case .subscribed(let sender, let destination):
            connectionChanged(Connection(PortAddress(sender), PortAddress(destination)), connected: true)
        case .unsubscribed(let sender, let destination):
            connectionChanged(Connection(PortAddress(sender), PortAddress(destination)), connected: false)
        }
    }

    /// Lists the ports again; the core compares (`PortsCore.portsChanged`): departed ports
    /// release every note they hold (note-offs and sustain-off at each node they fed) at
    /// once; the rules are applied a moment later, when the burst of announcements is over.
    ///
    /// Called once per batch of announcements (and after lost input), so a card leaving
    /// with many ports costs one listing, and a missed announcement is caught up.
    func syncPorts() {
        refreshPorts(changed: true)
    }

    /// A subscription appeared or vanished: published, and handed to `PortsCore`, which keeps
    /// it as a hand edit once ports have settled unless the daemon made it.
    private func connectionChanged(_ connection: Connection, connected: Bool) {
        ports.announce(connection, connected: connected)
        log.publish(connected ? .connected(ports.connectionSummary(connection)) : .disconnected(ports.connectionSummary(connection)))
        feed(.connectionAnnounced(connection, connected: connected, at: HostTime.now()))
    }

    /// Makes and breaks connections so they follow the rules and runtime edits, and links
    /// midihub:out to the external nodes' ports.
    /// - Thread: owner.
    func reconcile() {
        prepareJackOutputs()
        feed(.reconcile)
        linkExternalNodes()
    }

    /// Does what `PortsCore` asks (`HubEffect.ports`).
    /// - Returns: whether a connection was made or broken (the caller reads the port list again).
    /// - Thread: owner.
    func carryOut(_ effect: PortsCore.Effect) -> Bool {
        switch effect {
        case .portLeft(let gone):
            portLeft(gone, releasedNotesAt: [])  // the core hands it on as `HubEffect.portLeft`
        case .portAppeared(let new):
            log.info("port appeared: \(ports.describe(new))")
            log.publish(.portAppeared(ports.summary(new)))
        case .handEditKept(let source, let destination, let connected):
            log.info("\(connected ? "connected" : "disconnected") by hand: \(ports.describe(source)) -> \(ports.describe(destination)) (kept as a runtime edit)")
            saveState()
        case .connect(let connection):
            apply(connection, connected: true, reason: "by rule")
            return true
        case .disconnect(let connection):
            apply(connection, connected: false, reason: "by rule")
            return true
        }
        return false
    }

    /// A port left: the core released the notes it held at the nodes `releasedNotesAt`; here
    /// at the JACK destinations it fed. External nodes left without a port are reported gone.
    func portLeft(_ gone: PortDescriptor, releasedNotesAt nodes: [NodeID]) {
        let released = nodes + forgetJack(gone.address)
        if let address = SeqAddress(gone.address) { receivers.forget(address) }
        log.info("port left: \(ports.describe(gone))" + (released.isEmpty ? "" : "; released notes at \(released.joined(separator: ", "))"))
        log.publish(.portLeft(ports.summary(gone)))
        for node in core.snapshot.graph.nodes {
            if case .external(let external) = node.body, external.port.matches(gone),
               ports.destination(for: external.port, excludingClient: client.clientID) == nil {
                log.publish(.nodeGone(node: node.id, reason: .deviceUnplugged))
            }
        }
    }

    /// Subscribes or unsubscribes; logs the outcome.
    func apply(_ connection: Connection, connected: Bool, reason: String) {
        if JackPortTable.isJack(connection.source) || JackPortTable.isJack(connection.destination) {
            return applyJack(connection, connected: connected, reason: reason)
        }
        guard let sender = SeqAddress(connection.source), let destination = SeqAddress(connection.destination) else { return }
        let text = [connection.source, connection.destination].map { address in
            ports.descriptor(at: address).map(ports.describe) ?? address.description
        }.joined(separator: " -> ")
        do {
            if connected {
                try client.subscribe(sender: sender, destination: destination)
            } else {
                try client.unsubscribe(sender: sender, destination: destination)
            }
            feed(.connectionApplied(connection, connected: connected, succeeded: true))
            log.info("\(connected ? "connected" : "disconnected") \(text) (\(reason))")
        } catch {
            feed(.connectionApplied(connection, connected: connected, succeeded: false))
            log.warning("cannot \(connected ? "connect" : "disconnect") \(text): \(error)")
        }
    }
}
