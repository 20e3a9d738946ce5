import MIDICore
import ALSA
import AudioHost
import Control
import Hub
import RtMidiBackend

/// The JACK side of the daemon: port polling, MIDI from JACK sources, connections and
/// outputs to JACK ports (see `JackBridge`).
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Takes what the JACK watch found (a server, its ports; see `JackBridge.poll`) and
    /// routes what JACK sources sent since the last turn.
    /// - Thread: owner (the MIDI input thread).
    func serviceJack(signalled: Bool) {
        if jack.poll() { portsDirty = true }
        updateJackLane()
        routeJackInput(signalled: signalled)
        reportJackLaneLosses()
    }

    /// One line a second at most while the hub's JACK client loses JACK MIDI for the core
    /// (its ring to the owner was full: the MIDI thread fell behind): how many since the last
    /// line. What it played at its frame was played; the core missed the rest of them.
    /// - Thread: owner (the MIDI input thread).
    private func reportJackLaneLosses() {
        guard let lane = jack.lane, lane.droppedCount > jackLaneLossesReported else { return }
        let now = HostTime.now()
        guard now - jackLaneLossCheck >= 1 else { return }
        jackLaneLossCheck = now
        let total = lane.droppedCount
        log.warning("JACK MIDI: \(total - jackLaneLossesReported) messages from JACK sources lost on their way to the MIDI thread "
                    + "(it fell behind the hub's JACK client; \(total) in all); what they played at their frame was played, "
                    + "takes, ALSA destinations and processors missed them")
        jackLaneLossesReported = total
    }

    /// While the hub plays into JACK, its JACK client reads the JACK sources the bridge
    /// carries in its process callback (`JackMIDILane`), and plays each one's messages at their
    /// frames on the unit nodes and the JACK ports of the external nodes it reaches straight
    /// from its source nodes (`HubCore.directRoutes`: none when a mapping, learning or a
    /// processor may act on it first); the core still takes every message after. Otherwise
    /// the bridge's inputs read them. The table is worked out only when what it is worked out
    /// from changed (`JackLaneBasis`: most turns compare a few numbers), and handed to the
    /// lane only when it changed.
    private func updateJackLane() {
        guard let jackPorts = catalog?.jackPorts else { return }
        let playsInJack = if let audio, case .jack = audio.driver.target { audio.driver.isRunning } else { false }
        guard playsInJack || jack.lane != nil else { return }
        jack.read(through: playsInJack ? jackPorts.midi : nil)
        let basis = playsInJack ? JackLaneBasis(lane: ObjectIdentifier(jackPorts.midi), routes: core.directRoutesBasis,
                                                links: jack.fromJack, jackPorts: jack.tableRevision,
                                                renderIDs: audio?.renderIDs ?? [:]) : nil
        guard basis != jackLaneBasis else { return }
        jackLaneBasis = basis
        let sources = playsInJack ? jack.linkedSources : []
        guard !sources.isEmpty || !jackLaneInputs.isEmpty else { return }
        let hubInput = PortAddress(inPort.address)
        let destinations = sources.isEmpty ? [] : routeDestinations()
        let inputs: [JackMIDILane.Input] = sources.map { source in
            let intoHub = jack.fromJack.contains(Connection(source.address, hubInput))
            let direct = intoHub ? core.directRoutes(from: source.address) ?? [] : []
            let routes = direct.compactMap { route -> JackMIDILane.Route? in
                if route.isUnit {
                    return audio?.renderIDs[route.node].map { JackMIDILane.Route(node: $0, channelMask: route.channelMask) }
                }
                guard route.index < destinations.count, case .jack(let address)? = destinations[route.index],
                      let name = jack.jackName(at: address) else { return nil }  // an ALSA port: the core's
                return JackMIDILane.Route(port: name.fullName, key: JackMIDIKey.key(address), channelMask: route.channelMask)
            }
            return JackMIDILane.Input(key: JackMIDIKey.key(source.address), source: source.name.fullName, routes: routes)
        }
        guard inputs != jackLaneInputs else { return }
        jackLaneInputs = inputs
        jackPorts.readMIDI(inputs) { [log] line in log.warning(line) }
    }

    /// Hands each message from a JACK source to every ALSA destination it is connected to:
    /// `midihub:in` means into the hub as any live input (mappings, learn, a take, then the
    /// source nodes whose selector matches the JACK port), any other port gets it from `midihub:out`.
    private func routeJackInput(signalled: Bool) {
        let received = jack.drain(signalled: signalled)
        guard !received.isEmpty else { return }
        let targets = Dictionary(grouping: jack.fromJack, by: \.source)
        let hubInput = PortAddress(inPort.address)
        var sink = makeSink()
        let now = HostTime.now()
        let hub = core.snapshot
        for item in received {
            guard hub.knowsPort(at: item.source) else { continue }
            for link in targets[item.source] ?? [] {
                if link.destination == hubInput {
                    // What the hub's JACK client played at its frame is not played again.
                    (sink.skipsUnits, sink.skipsJackPorts) = (item.servedUnits, item.servedPorts)
                    routeLive(item.message, from: item.source, at: now, into: &sink)
                    (sink.skipsUnits, sink.skipsJackPorts) = (false, false)
                } else if let address = SeqAddress(link.destination) {
                    receivers.send(item.message, to: address)
                }
            }
        }
        flush(sink)
    }

    /// Opens the bridge's outputs to the JACK ports external nodes play, before the first
    /// message (a JACK connection takes effect a cycle later). - Thread: owner.
    func prepareJackOutputs() {
        let destinations = core.snapshot.graph.nodes.compactMap { node -> PortAddress? in
            guard case .external(let external) = node.body,
                  let address = ports.destination(for: external.port, excludingClient: client.clientID)
            else { return nil }
            return JackPortTable.isJack(address) ? address : nil
        }
        jack.prepareOutputs(for: Set(destinations))
    }

    /// Makes or breaks a connection with a JACK end: JACK → ALSA and ALSA → JACK are
    /// carried by the bridge, JACK → JACK is made in JACK (`jack_connect`).
    func applyJack(_ connection: Connection, connected: Bool, reason: String) {
        let text = "\(ports.hubName(of: connection.source)) -> \(ports.hubName(of: connection.destination))"
        do {
            switch (JackPortTable.isJack(connection.source), JackPortTable.isJack(connection.destination)) {
            case (true, true):
                try connected ? jack.connectInJack(connection) : jack.disconnectInJack(connection)
            case (true, false):
                try connected ? jack.link(connection) : jack.unlink(connection)
            default:
                try connected ? forwardToJack(connection) : stopForwarding(connection)
            }
            log.info("\(connected ? "connected" : "disconnected") \(text) (\(reason))")
        } catch {
            log.warning("cannot \(connected ? "connect" : "disconnect") \(text): \(error)")
        }
    }

    /// Carries an ALSA source to a JACK destination: the bridge's output to the destination,
    /// and the source subscribed to `midihub:in` (unless it already is, or a rule will
    /// subscribe it) so that its events reach `routeToJack`. When the source also feeds
    /// source nodes, the graph gets its events as well.
    private func forwardToJack(_ connection: Connection) throws(JackMIDIError) {
        try jack.forward(connection)
        let toHub = Connection(connection.source, PortAddress(inPort.address))
        guard !ports.connections.contains(toHub), !core.snapshot.isMaking(toHub), !hubInputWanted(toHub) else { return }
        apply(toHub, connected: true, reason: "carries \(ports.hubName(of: connection.source)) to JACK")
        forwardSubscriptions.insert(connection.source)
    }

    /// Stops carrying an ALSA source to a JACK destination (releasing the notes it held
    /// there) and takes back the source's `midihub:in` subscription made for it when no other
    /// JACK destination, rule or hand edit needs it.
    private func stopForwarding(_ connection: Connection) {
        jack.unforward(connection)
        dropUnneededHubSubscriptions()
    }

    /// Unsubscribes from `midihub:in` the sources subscribed for JACK destinations they no
    /// longer feed, unless a rule or hand edit wants them there.
    private func dropUnneededHubSubscriptions() {
        for source in forwardSubscriptions where !jack.forwards.forwards(source) {
            forwardSubscriptions.remove(source)
            let toHub = Connection(source, PortAddress(inPort.address))
            if ports.connections.contains(toHub), !hubInputWanted(toHub) {
                apply(toHub, connected: false, reason: "no longer carried to JACK")
            }
        }
    }

    /// Whether the rules or a hand edit want `connection` (a source → `midihub:in`).
    private func hubInputWanted(_ connection: Connection) -> Bool {
        guard let source = ports.descriptor(at: connection.source),
              let destination = ports.descriptor(at: connection.destination) else { return false }
        return core.snapshot.wantsConnection(from: source, to: destination) == true
    }

    /// Forgets the JACK connections of a port that left; an ALSA source's notes are released
    /// at the JACK destinations it fed.
    /// - Returns: those destinations' names, for the log.
    func forgetJack(_ address: PortAddress) -> [String] {
        forwardSubscriptions.remove(address)
        let released = jack.forget(address).map { ports.hubName(of: $0) }
        dropUnneededHubSubscriptions()
        return released
    }
}
