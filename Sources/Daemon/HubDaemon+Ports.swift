import ALSA
import Control
import Hub

/// Ports coming and going, rule reconciliation, connections made by hand.
extension HubDaemon {
    /// Re-reads the port list. - Thread: owner.
    func refreshPorts() {
        do {
            ports.update(try client.ports())
            routeCache.portsChanged()
        } catch {
            log.error("cannot list the sequencer ports: \(error)")
        }
        ports.updateJack(jack.descriptors, connections: jack.connections)
    }

    /// Reacts to a System announcement. - Thread: input (the owner).
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

    /// Compares the port list before and after: departed ports release every note they
    /// hold (note-offs and sustain-off at each node they fed) at once; the rules are applied
    /// a moment later (`settleSeconds`), when the burst of announcements is over. (While a
    /// card is being removed, its remaining ports have lost their subscriptions but still
    /// exist; subscribing to them again then can block in the kernel.)
    ///
    /// Called once per batch of announcements (and after lost input), so a card leaving
    /// with many ports costs one listing, and a missed announcement is caught up.
    func syncPorts() {
        let before = ports.descriptors
        refreshPorts()
        let after = ports.descriptors
        let afterSet = Set(after.map(\.address)), beforeSet = Set(before.map(\.address))
        for gone in before where !afterSet.contains(gone.address) || ports.descriptor(at: gone.address)?.identity != gone.identity {
            pendingEdits.removeAll { $0.connection.source == gone.address || $0.connection.destination == gone.address }
            let releasedAtJack = forgetJack(gone.address)
            var sink = makeSink()
            let released = router.unplug(gone.identity, at: Self.now(), into: &sink) + releasedAtJack
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
        if before != after { reconcileDue = Self.now() + Self.settleSeconds }
    }

    /// How long the announcements must be quiet before the rules are applied.
    static let settleSeconds = 0.25

    /// A subscription appeared or vanished. Ours are expected; any other one may have been
    /// made by hand (`midihub connect`, `aconnect`, another app) — or by the kernel tearing a
    /// departing card down — so it is confirmed once ports have settled (`confirmHandEdits`).
    private func connectionChanged(_ connection: Connection, connected: Bool) {
        log.publish(connected ? .connected(connectionSummary(connection)) : .disconnected(connectionSummary(connection)))
        guard ownChanges.removeValue(forKey: connection) != connected,
              ports.descriptor(at: connection.source) != nil, ports.descriptor(at: connection.destination) != nil else { return }
        pendingEdits.append((connection, connected))
        reconcileDue = Self.now() + Self.settleSeconds
    }

    /// Remembers as runtime edits the pending changes whose ports both still exist and whose
    /// state still holds (a departing card's vanished subscriptions are not edits).
    func confirmHandEdits() {
        let edits = pendingEdits
        pendingEdits = []
        for edit in edits {
            guard let source = ports.descriptor(at: edit.connection.source),
                  let destination = ports.descriptor(at: edit.connection.destination),
                  ports.connections.contains(edit.connection) == edit.connected else { continue }
            log.info("\(edit.connected ? "connected" : "disconnected") by hand: \(describe(source)) -> \(describe(destination)) (kept as a runtime edit)")
            reconciler.record(connected: edit.connected, source: source, destination: destination)
            saveState()
        }
    }

    /// Makes and breaks connections so they follow the rules and runtime edits, and links
    /// midihub:out to the external nodes' ports.
    /// - Thread: owner.
    func reconcile() {
        prepareJackOutputs()
        let plan = reconciler.plan(ports: ports.descriptors, current: ports.connections)
        if !plan.isEmpty {
            for connection in plan.toBreak { apply(connection, connected: false, reason: "by rule") }
            for connection in plan.toMake { apply(connection, connected: true, reason: "by rule") }
            refreshPorts()
        }
        linkExternalNodes()
    }

    /// Subscribes or unsubscribes; logs the outcome.
    func apply(_ connection: Connection, connected: Bool, reason: String) {
        if JackPortTable.isJack(connection.source) || JackPortTable.isJack(connection.destination) {
            return applyJack(connection, connected: connected, reason: reason)
        }
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
        if let name = JackPortTable.hubName(of: port) { return name }
        return "\(port.address) '\(port.clientName):\(port.portName)' [\(port.identity.device)]"
    }

    func summary(_ port: PortDescriptor) -> PortSummary {
        if JackPortTable.isJack(port.address) { return jackSummary(port) }
        let info = ports.infos[port.address]
        let direction: PortSummary.Direction = switch port.direction {
        case .output: .source
        case .input: .destination
        case .duplex: .duplex
        }
        return PortSummary(address: port.address.description, client: port.address.client, port: port.address.port,
                           clientName: port.clientName, portName: port.portName, direction: direction,
                           kind: port.portClass == .hardware ? .hardware : .app, card: info?.card,
                           cardName: port.cardLongName ?? info?.cardName, usbPath: port.usbPath, serial: port.serial,
                           connectedTo: (info?.connectedTo ?? []).map(\.description),
                           connectedFrom: (info?.connectedFrom ?? []).map(\.description))
    }

    func connectionSummary(_ connection: Connection) -> ConnectionSummary {
        ConnectionSummary(source: hubName(of: connection.source), destination: hubName(of: connection.destination))
    }
}
