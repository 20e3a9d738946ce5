import ALSA
import Control
import Hub

/// The JACK side of the daemon: port polling, MIDI from JACK sources, connections and
/// outputs to JACK ports (see `JackBridge`).
extension HubDaemon {
    /// Polls the JACK server and ports on the bridge's timer and routes what JACK sources
    /// sent since the last turn. - Thread: input, under the lock.
    func serviceJack() {
        if !jack.poll(now: Self.now()).isEmpty { portsDirty = true }
        routeJackInput()
    }

    /// Hands each message from a JACK source to every ALSA destination it is connected to:
    /// `midihub:in` means into the graph (the source nodes whose selector matches the JACK
    /// port), any other port gets it from `midihub:out`.
    private func routeJackInput() {
        let received = jack.drain()
        guard !received.isEmpty else { return }
        let targets = Dictionary(grouping: jack.links, by: \.source)
        let hubInput = PortAddress(inPort.address)
        var sink = makeSink()
        var wroteOutput = false
        let now = Self.now()
        for (source, message) in received {
            guard let port = ports.descriptor(at: source) else { continue }
            for link in targets[source] ?? [] {
                if link.destination == hubInput {
                    router.route(message, from: port, time: now, into: &sink)
                } else if let address = SeqAddress(link.destination) {
                    _ = try? client.output(message, from: outPort, to: address)
                    wroteOutput = true
                }
            }
        }
        flush(sink)
        if wroteOutput { _ = try? client.drainOutput() }
    }

    /// Opens the bridge's outputs to the JACK ports external nodes play, before the first
    /// message (a JACK connection takes effect a cycle later). - Thread: under the lock.
    func prepareJackOutputs() {
        let destinations = router.graph.nodes.compactMap { node -> PortAddress? in
            guard case .external(let external) = node.body,
                  let address = ports.destination(for: external.port, excludingClient: client.clientID)
            else { return nil }
            return JackPortTable.isJack(address) ? address : nil
        }
        jack.prepareOutputs(for: Set(destinations))
    }

    /// Makes or breaks a connection with a JACK end. The bridge carries JACK source → ALSA
    /// destination; ALSA → JACK goes through the graph (a source node routed to an external
    /// node `jack:…`), and JACK → JACK is JACK's own business (`jack_connect`).
    func applyJack(_ connection: Connection, connected: Bool, reason: String) {
        let text = "\(hubName(of: connection.source)) -> \(hubName(of: connection.destination))"
        guard JackPortTable.isJack(connection.source), !JackPortTable.isJack(connection.destination) else {
            if connected, jack.isFirstRefusal(of: connection) {
                log.warning("cannot connect \(text): midihub carries JACK → ALSA connections; route ALSA → JACK through the graph (a source node to an external node 'jack:CLIENT:PORT'), connect JACK ports with jack_connect")
            }
            return
        }
        guard connected else {
            jack.unlink(connection)
            log.info("disconnected \(text) (\(reason))")
            return
        }
        do {
            try jack.link(connection)
            log.info("connected \(text) (\(reason))")
        } catch {
            log.warning("cannot connect \(text): \(error)")
        }
    }

    /// `jack:CLIENT:PORT` for a JACK port, `client:port` for an ALSA one.
    func hubName(of address: PortAddress) -> String {
        ports.descriptor(at: address).flatMap(JackPortTable.hubName) ?? address.description
    }

    func jackSummary(_ port: PortDescriptor) -> PortSummary {
        let name = JackPortTable.hubName(of: port) ?? port.portName
        let jackClient = String(port.portName.prefix { $0 != ":" })
        let links = ports.connections.filter { $0.source == port.address }
        return PortSummary(address: name, client: nil, port: nil, clientName: jackClient,
                           portName: String(port.portName.dropFirst(jackClient.count + 1)),
                           direction: port.direction == .output ? .source : .destination, kind: .app,
                           card: nil, cardName: nil, connectedTo: links.map { hubName(of: $0.destination) }.sorted(),
                           connectedFrom: [])
    }
}
