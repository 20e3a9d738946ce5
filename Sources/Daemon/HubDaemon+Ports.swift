import ALSA
import Control
import Hub

/// Ports coming and going, rule reconciliation, connections made by hand.
extension HubDaemon {
    /// Re-reads the port list. - Thread: under the lock.
    func refreshPorts() {
        do {
            ports.update(try client.ports())
        } catch {
            log.error("cannot list the sequencer ports: \(error)")
        }
    }

    /// Reacts to a System announcement. - Thread: input, under the lock.
    func handle(_ announcement: SeqAnnouncement) {
        switch announcement {
        case .portStart, .portExit, .clientExit, .portChange, .clientChange, .clientStart:
            portsChanged()
        case .subscribed(let sender, let destination):
            connectionChanged(Connection(PortAddress(sender), PortAddress(destination)), connected: true)
        case .unsubscribed(let sender, let destination):
            connectionChanged(Connection(PortAddress(sender), PortAddress(destination)), connected: false)
        }
    }

    /// Compares the port list before and after: departed ports release every note they
    /// hold (note-offs and sustain-off at each node they fed) at once; the rules are applied
    /// a moment later (`settleSeconds`), when the burst of announcements is over. (While a
    /// card is being removed, its remaining ports have lost their subscriptions but still
    /// exist; subscribing to them again then can block in the kernel.)
    private func portsChanged() {
        let before = ports.descriptors
        refreshPorts()
        let after = ports.descriptors
        let afterSet = Set(after.map(\.address)), beforeSet = Set(before.map(\.address))
        for gone in before where !afterSet.contains(gone.address) || ports.descriptor(at: gone.address)?.identity != gone.identity {
            var sink = makeSink()
            let released = router.unplug(gone.identity, at: Self.now(), into: &sink)
            flush(sink)
            log.info("port left: \(describe(gone))" + (released.isEmpty ? "" : "; released notes at \(released.joined(separator: ", "))"))
            log.publish(.portLeft(summary(gone)))
            for node in router.graph.nodes {
                if case .external(let external) = node.body, external.port.matches(gone),
                   ports.destination(for: external.port, excludingClient: client.clientID) == nil {
                    log.publish(.nodeGone(node: node.id, reason: .deviceUnplugged))
                }
            }
        }
        for new in after where !beforeSet.contains(new.address) {
            log.info("port appeared: \(describe(new))")
            log.publish(.portAppeared(summary(new)))
        }
        reconcileDue = Self.now() + Self.settleSeconds
    }

    /// How long the announcements must be quiet before the rules are applied.
    static let settleSeconds = 0.25

    /// A subscription appeared or vanished. Ours are expected; any other one was made by
    /// hand (`midihub connect`, `aconnect`, another app) and is remembered as a runtime edit.
    private func connectionChanged(_ connection: Connection, connected: Bool) {
        let ownChange = ownChanges.removeValue(forKey: connection) == connected
        refreshPorts()
        guard let source = ports.descriptor(at: connection.source),
              let destination = ports.descriptor(at: connection.destination) else { return }
        let text = "\(describe(source)) -> \(describe(destination))"
        log.publish(connected ? .connected(connectionSummary(connection)) : .disconnected(connectionSummary(connection)))
        guard !ownChange else { return }
        log.info("\(connected ? "connected" : "disconnected") by hand: \(text) (kept as a runtime edit)")
        reconciler.record(connected: connected, source: source, destination: destination)
        saveState()
    }

    /// Makes and breaks connections so they follow the rules and runtime edits.
    /// - Thread: under the lock.
    func reconcile() {
        let plan = reconciler.plan(ports: ports.descriptors, current: ports.connections)
        guard !plan.isEmpty else { return }
        for connection in plan.toBreak { apply(connection, connected: false, reason: "by rule") }
        for connection in plan.toMake { apply(connection, connected: true, reason: "by rule") }
        refreshPorts()
    }

    /// Subscribes or unsubscribes; logs the outcome.
    func apply(_ connection: Connection, connected: Bool, reason: String) {
        guard let sender = SeqAddress(connection.source), let destination = SeqAddress(connection.destination) else { return }
        let text = [connection.source, connection.destination].map { address in
            ports.descriptor(at: address).map(describe) ?? address.description
        }.joined(separator: " -> ")
        do {
            ownChanges[connection] = connected
            if connected {
                try client.subscribe(sender: sender, destination: destination)
            } else {
                try client.unsubscribe(sender: sender, destination: destination)
            }
            log.info("\(connected ? "connected" : "disconnected") \(text) (\(reason))")
        } catch {
            ownChanges[connection] = nil
            log.warning("cannot \(connected ? "connect" : "disconnect") \(text): \(error)")
        }
    }

    func describe(_ port: PortDescriptor) -> String {
        "\(port.address) '\(port.clientName):\(port.portName)' [\(port.identity.device)]"
    }

    func summary(_ port: PortDescriptor) -> PortSummary {
        let info = ports.infos[port.address]
        let direction: PortSummary.Direction = switch port.direction {
        case .output: .source
        case .input: .destination
        case .duplex: .duplex
        }
        return PortSummary(address: port.address.description, client: port.address.client, port: port.address.port,
                           clientName: port.clientName, portName: port.portName, direction: direction,
                           kind: port.portClass == .hardware ? .hardware : .app, card: info?.card,
                           cardName: port.cardLongName ?? info?.cardName,
                           connectedTo: (info?.connectedTo ?? []).map(\.description),
                           connectedFrom: (info?.connectedFrom ?? []).map(\.description))
    }

    func connectionSummary(_ connection: Connection) -> ConnectionSummary {
        ConnectionSummary(source: connection.source.description, destination: connection.destination.description)
    }
}
