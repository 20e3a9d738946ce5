import Hub
import MIDICore
import RtMidiBackend

/// The daemon's JACK side: finds the JACK server, lists its MIDI ports on a timer (RtMidi
/// has no registration callback), and carries MIDI between them and the hub.
///
/// - JACK → hub: a JACK source connected to an ALSA destination (`midihub:in` or any
///   other) gets a `JackMIDIInput` of the daemon's, connected to it in JACK; its input
///   signals `wakeDescriptors` and the MIDI input thread drains it (`drain`).
/// - hub → JACK: a JACK destination an external node selects gets a `JackMIDIOutput` of the
///   daemon's, connected to it in JACK (`prepareOutputs`), and `send` hands the message to
///   the bridge's sending thread ("midihub-jack-out", through a lock-free ring), which
///   writes it: RtMidi's `send` waits when its ring is full, which MIDI must not.
/// - ALSA → JACK: an ALSA source connected to a JACK destination (`forward(_:)`) has its
///   events, received on `midihub:in`, sent to the output to that destination
///   (`forward(_:from:)`); see `JackForwards`.
/// - JACK → JACK: made and broken in JACK itself (`jack_connect`), see `JackPeerLinks`.
///
/// Without a server the JACK side is absent and one line says why; a server that goes away
/// is reported in one line and looked for again on the timer.
///
/// - Thread: owner (the state's owner, the MIDI input thread); never the render thread.
final class JackBridge {
    /// How often the server is probed and the JACK port list read.
    static let pollSeconds = 1.0

    private let log: DaemonLog
    private let clientName: String
    private var client: JackMIDIClient?
    private var table = JackPortTable()
    private var inputs: [PortAddress: JackMIDIInput] = [:]
    private var outputs: [PortAddress: JackMIDIOutput] = [:]
    /// Connections from a JACK source to an ALSA destination that the bridge carries.
    private(set) var fromJack: Set<Connection> = []
    /// Connections from an ALSA source to a JACK destination that the bridge carries.
    private(set) var forwards = JackForwards()
    /// JACK → JACK connections made in JACK (`nil`: no server).
    private var peerLinks: JackPeerLinks?
    /// The JACK destinations external nodes play (`prepareOutputs`).
    private var nodeDestinations: Set<PortAddress> = []
    /// Signalled by the JACK inputs on JACK's process thread (`nil`: no eventfd, the poll
    /// timeout paces the draining).
    private let wakeup: WakeupEvent?
    /// The ports and client of servers that died. libjack aborts the process (`pure virtual
    /// method called`) when a client of a dead server is closed, so they are kept, never
    /// closed, for the life of the process: a few kB per server loss.
    private var abandoned: [AnyObject] = []
    private var nextPoll = HostTime.distantPast
    /// Looks for a server and opens the clients on it, off the MIDI input thread, while
    /// there is none.
    private let probe: JackProbe
    private var everPolled = false
    /// Writes to the JACK outputs, off the owner, in the order the messages were handed over.
    private let sender: HandoffThread<OutgoingMessage>

    /// A message for a JACK output, on its way to the sending thread.
    private struct OutgoingMessage: Sendable {
        let output: JackMIDIOutput
        let message: MIDIMessage
    }

    /// - Parameter clientName: the JACK client name of the daemon's JACK ports.
    /// - Thread: control (main, while the daemon starts).
    init(log: DaemonLog, clientName: String) {
        self.log = log
        self.clientName = clientName
        probe = JackProbe(interval: Self.pollSeconds, clientName: clientName)
        sender = HandoffThread(name: "midihub-jack-out", capacity: 4096) { [log] outgoing, lost, _ in
            for item in outgoing {
                do {
                    try item.output.send(item.message)
                } catch {
                    log.warning("cannot send to \(item.output.connectedDestination?.description ?? "JACK"): \(error)")
                }
            }
            if lost > 0 { log.warning("\(lost) MIDI messages for JACK dropped: JACK took them slower than the hub sent them") }
            return nil
        }
        do {
            wakeup = try WakeupEvent()
        } catch {
            log.warning("JACK input is drained every poll turn only: \(error)")
            wakeup = nil
        }
    }

    /// The JACK ports present, as the hub's descriptors.
    var descriptors: [PortDescriptor] { table.descriptors }

    /// Every connection with a JACK end that the bridge carries or made.
    var connections: Set<Connection> { fromJack.union(forwards.connections).union(peerLinks?.connections ?? []) }

    /// Descriptors the MIDI input thread polls besides the sequencer: readable when a JACK
    /// input has events to drain.
    var wakeDescriptors: [Int32] { wakeup.map { [$0.descriptor] } ?? [] }

    /// At start, on the main thread before the MIDI input thread runs: probes for a server
    /// here (so the rules see the JACK ports from the start, and the one log line comes
    /// first), then starts the probe thread, which looks again every `pollSeconds` while
    /// there is no server.
    /// - Returns: the JACK ports that appeared.
    /// - Thread: control (main, at start, before the MIDI input thread runs).
    func start() -> JackPortTable.Changes {
        let changes = adopt(JackProbe.look(clientName: clientName))
        probe.start(probing: client == nil)
        return changes
    }

    /// Stops the probe thread and, once it has written what waits, the sending thread.
    /// - Thread: control (main, after the MIDI input thread ended).
    func stop() {
        probe.stop()
        sender.stop()
    }

    /// Makes the calling thread (the owner) the one that hands messages to the sending
    /// thread without a lock; `releaseProducer` ends that.
    /// - Thread: owner, first and last thing.
    func adoptProducer() {
        sender.adoptProducer()
    }

    func releaseProducer() {
        sender.releaseProducer()
    }

    /// Without a server: acts on the probe thread's newest answer (starting the JACK side,
    /// with one log line, when a server answered). With one, at most every `pollSeconds`:
    /// drops the JACK side if the server shut down (the connector's `serverIsGone`, which
    /// libjack sets at once), else re-reads the port list. A server we are connected to is
    /// never probed.
    /// - Returns: the JACK ports that appeared or left.
    func poll(now: HostTime) -> JackPortTable.Changes {
        guard client != nil else {
            guard let answer = probe.take() else { return JackPortTable.Changes() }
            nextPoll = now + HostDuration(seconds: Self.pollSeconds)
            return adopt(answer)
        }
        guard now >= nextPoll else { return JackPortTable.Changes() }
        nextPoll = now + HostDuration(seconds: Self.pollSeconds)
        guard peerLinks?.connector.serverIsGone == false else {
            defer { probe.resume() }
            return dropServer()
        }
        return readPorts()
    }

    /// Acts on a probe's answer while the bridge has no server: takes the clients it opened
    /// and reads the ports, or logs why there is no JACK side (the first time only).
    private func adopt(_ answer: JackProbe.Answer) -> JackPortTable.Changes {
        defer { everPolled = true }
        switch answer {
        case .unavailable(let reason), .openFailed(let reason):
            if !everPolled { log.info(reason) }
            return JackPortTable.Changes()
        case .opened(let clients):
            client = clients.client
            peerLinks = JackPeerLinks(connector: clients.connector)
            log.info(everPolled ? "JACK server back: bridging JACK MIDI ports again"
                                : "JACK MIDI available: JACK ports appear as jack:CLIENT:PORT")
            return readPorts()
        }
    }

    /// Carries `connection`'s JACK source to its ALSA destination.
    /// - Throws: `JackMIDIError` when the source is gone or JACK refuses the port.
    func link(_ connection: Connection) throws(JackMIDIError) {
        guard let client, let source = table.jackName(at: connection.source) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        if inputs[connection.source] == nil {
            let input = try client.openInput(connectedTo: source, portName: "in") { [wakeup] in
                wakeup?.signal()
            }
            do {
                try confirm(source, feeds: input.name)
            } catch {
                input.close()
                throw error
            }
            inputs[connection.source] = input
        }
        fromJack.insert(connection)
    }

    /// Stops carrying `connection`; closes the source's input when nothing else uses it.
    func unlink(_ connection: Connection) {
        fromJack.remove(connection)
        closeUnusedPorts()
    }

    /// Carries `connection`'s ALSA source to its JACK destination: opens the output to the
    /// destination (the caller subscribes the source to `midihub:in`).
    /// - Throws: `JackMIDIError` when the destination is gone or JACK refuses the port.
    func forward(_ connection: Connection) throws(JackMIDIError) {
        _ = try openOutput(for: connection.destination)
        forwards.insert(connection)
    }

    /// Stops carrying `connection`, releasing at its JACK destination the notes it held.
    func unforward(_ connection: Connection) {
        release(forwards.remove(connection), at: connection.destination)
        closeUnusedPorts()
    }

    /// Sends `message`, received on `midihub:in` from the ALSA port at `source`, to the
    /// JACK destinations that source is connected to (usually none: one dictionary lookup).
    /// - Thread: owner (the MIDI input thread).
    func forward(_ message: MIDIMessage, from source: PortAddress) {
        guard !forwards.isEmpty else { return }
        for destination in forwards.destinations(of: source) {
            forwards.record(message, on: Connection(source, destination))
            send(message, to: destination)
        }
    }

    /// Connects two JACK ports in JACK.
    /// - Throws: `JackMIDIError` when a port is gone or JACK refuses.
    func connectInJack(_ connection: Connection) throws(JackMIDIError) {
        guard peerLinks != nil else { throw .unavailable(reason: "the JACK server is gone") }
        try peerLinks?.connect(connection, in: table)
    }

    /// Disconnects two JACK ports in JACK (not connected is success).
    /// - Throws: `JackMIDIError` when a port is gone or JACK refuses.
    func disconnectInJack(_ connection: Connection) throws(JackMIDIError) {
        guard peerLinks != nil else { throw .unavailable(reason: "the JACK server is gone") }
        try peerLinks?.disconnect(connection, in: table)
    }

    /// Drops the connections to or from `address` (an ALSA port that left: its number may be
    /// reused), releasing at each JACK destination the notes it fed there.
    /// - Returns: the JACK destinations that got note-offs.
    func forget(_ address: PortAddress) -> [PortAddress] {
        fromJack = fromJack.filter { $0.source != address && $0.destination != address }
        var released: [PortAddress] = []
        for (connection, releases) in forwards.removeAll(touching: address) where !releases.isEmpty {
            release(releases, at: connection.destination)
            released.append(connection.destination)
        }
        closeUnusedPorts()
        return released
    }

    /// Keeps an output open to exactly the JACK `destinations` (those external nodes
    /// select), so the JACK connection is in place before the first message.
    func prepareOutputs(for destinations: Set<PortAddress>) {
        nodeDestinations = destinations
        closeUnusedPorts()
        for address in destinations where outputs[address] == nil {
            _ = output(for: address)
        }
    }

    /// Hands `message` for the JACK destination at `address` to the sending thread; never
    /// waits. A failure is logged there: the caller is routing live MIDI.
    func send(_ message: MIDIMessage, to address: PortAddress) {
        guard let output = output(for: address) else { return }
        sender.post(OutgoingMessage(output: output, message: message))
    }

    /// Every message received from JACK sources since the last call, by source, oldest first.
    /// `signalled`: the owner's poll found the wake-up descriptor readable; its signal is
    /// cleared first, so input arriving meanwhile signals again.
    func drain(signalled: Bool) -> [(source: PortAddress, message: MIDIMessage)] {
        if signalled { wakeup?.reset() }
        guard !inputs.isEmpty else { return [] }
        var received: [(source: PortAddress, message: MIDIMessage)] = []
        for (address, input) in inputs.sorted(by: { $0.key < $1.key }) {
            received += input.drain().map { (address, $0.message) }
        }
        return received
    }

    // MARK: - server and ports

    private func readPorts() -> JackPortTable.Changes {
        guard let client else { return JackPortTable.Changes() }
        let list: JackPortList
        do {
            list = try client.ports()
        } catch {
            log.warning("cannot list the JACK ports: \(error)")
            return JackPortTable.Changes()
        }
        let own = Set(inputs.values.map(\.name) + outputs.values.map(\.name))
        let changes = table.update(list, excluding: own)
        for gone in changes.left {
            inputs.removeValue(forKey: gone.address)?.close()
            outputs.removeValue(forKey: gone.address)?.close()
            fromJack = fromJack.filter { $0.source != gone.address }
            _ = forwards.removeAll(touching: gone.address)
        }
        peerLinks?.refresh(in: table)
        reopenNodeOutputs()
        return changes
    }

    /// Opens again, on each port reading, the outputs to node destinations that failed to
    /// open before (logged once then, by `prepareOutputs` or `send`).
    private func reopenNodeOutputs() {
        for address in nodeDestinations where outputs[address] == nil && table.jackName(at: address) != nil {
            _ = try? openOutput(for: address)
        }
    }

    /// The server went away: abandons every JACK port of ours (see `abandoned`) and empties
    /// the table.
    private func dropServer() -> JackPortTable.Changes {
        abandoned += inputs.values.map { $0 as AnyObject } + outputs.values.map { $0 as AnyObject }
        abandoned += [client as AnyObject?, peerLinks?.connector as AnyObject?].compactMap { $0 }
        inputs = [:]
        outputs = [:]
        fromJack = []
        forwards = JackForwards()
        client = nil
        peerLinks = nil
        let changes = table.update(JackPortList(sources: [], destinations: []), excluding: [])
        log.warning("JACK server gone: dropped \(changes.left.count) JACK ports; looking for it every \(Int(Self.pollSeconds)) s")
        return changes
    }

    private func output(for address: PortAddress) -> JackMIDIOutput? {
        do {
            return try openOutput(for: address)
        } catch {
            log.warning("cannot open a JACK port to \(table.jackName(at: address)?.description ?? address.description): \(error)")
            return nil
        }
    }

    private func openOutput(for address: PortAddress) throws(JackMIDIError) -> JackMIDIOutput {
        if let output = outputs[address] { return output }
        guard let client, let destination = table.jackName(at: address) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        let output = try client.openOutput(connectedTo: destination, portName: "out")
        do {
            try confirm(output.name, feeds: destination)
        } catch {
            output.close()
            throw error
        }
        outputs[address] = output
        return output
    }

    /// Makes sure JACK connected `source` to `destination`: RtMidi ignores `jack_connect`'s
    /// answer when it opens a port, and a busy `--sync` server can refuse it (the port then
    /// exists unconnected, and MIDI sent to it goes nowhere). Already connected is success.
    /// - Throws: `JackMIDIError.connectionFailed` with libjack's code.
    private func confirm(_ source: JackPortName, feeds destination: JackPortName) throws(JackMIDIError) {
        guard let connector = peerLinks?.connector else { throw .unavailable(reason: "the JACK server is gone") }
        try connector.connect(source, to: destination)
    }

    private func release(_ releases: [MIDIMessage], at destination: PortAddress) {
        for message in releases { send(message, to: destination) }
    }

    /// Closes the inputs no connection reads and the outputs no node or connection feeds.
    private func closeUnusedPorts() {
        let linked = Set(fromJack.map(\.source))
        for (address, input) in inputs where !linked.contains(address) {
            input.close()
            inputs[address] = nil
        }
        for (address, output) in outputs where !nodeDestinations.contains(address) && !forwards.feeds(address) {
            output.close()
            outputs[address] = nil
        }
    }
}
