import Hub
import MIDICore
import RtMidiBackend

/// The daemon's JACK side: finds the JACK server, lists its MIDI ports on a timer (RtMidi
/// has no registration callback), and carries MIDI between them and the hub.
///
/// - JACK → hub: a JACK source connected to an ALSA destination (`midihub:in` or any
///   other) gets a `JackMIDIInput` of the daemon's, connected to it in JACK; the MIDI input
///   thread drains it (`drain`) on every turn of its poll loop.
/// - hub → JACK: a JACK destination an external node selects gets a `JackMIDIOutput` of the
///   daemon's, connected to it in JACK (`prepareOutputs`), and `send` writes to it.
///
/// Without a server the JACK side is absent and one line says why; a server that goes away
/// is reported in one line and looked for again on the timer.
///
/// - Thread: MIDI input or control, under the daemon's lock; never the render thread.
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
    private(set) var links: Set<Connection> = []
    /// The ports and client of servers that died. libjack aborts the process (`pure virtual
    /// method called`) when a client of a dead server is closed, so they are kept, never
    /// closed, for the life of the process: a few kB per server loss.
    private var abandoned: [AnyObject] = []
    /// Connections the bridge cannot carry that were already explained in the log.
    private var explained: Set<Connection> = []
    private var nextPoll = -Double.infinity
    private var everPolled = false

    /// - Parameter clientName: the JACK client name of the daemon's JACK ports.
    init(log: DaemonLog, clientName: String) {
        self.log = log
        self.clientName = clientName
    }

    /// The JACK ports present, as the hub's descriptors.
    var descriptors: [PortDescriptor] { table.descriptors }

    /// At most every `pollSeconds`: probes the server (starting or dropping the JACK side,
    /// with one log line) and re-reads the port list.
    /// - Returns: the JACK ports that appeared or left.
    func poll(now: Double) -> JackPortTable.Changes {
        guard now >= nextPoll else { return JackPortTable.Changes() }
        nextPoll = now + Self.pollSeconds
        defer { everPolled = true }
        let availability = JackAvailability.probe()
        guard availability == .available else {
            if !everPolled { log.info(availability.logLine) }
            return client == nil ? JackPortTable.Changes() : dropServer()
        }
        if client == nil, !connect() { return JackPortTable.Changes() }
        return readPorts()
    }

    /// Carries `connection`'s JACK source to its ALSA destination.
    /// - Throws: `JackMIDIError` when the source is gone or JACK refuses the port.
    func link(_ connection: Connection) throws(JackMIDIError) {
        guard let client, let source = table.jackName(at: connection.source) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        if inputs[connection.source] == nil {
            inputs[connection.source] = try client.openInput(connectedTo: source, portName: "in")
        }
        links.insert(connection)
    }

    /// Stops carrying `connection`; closes the source's input when nothing else uses it.
    func unlink(_ connection: Connection) {
        links.remove(connection)
        closeUnlinkedInputs()
    }

    /// True the first time it is asked about `connection`: the caller then logs why the
    /// bridge cannot carry it (once, not at every reconciliation).
    func isFirstRefusal(of connection: Connection) -> Bool {
        explained.insert(connection).inserted
    }

    /// Drops the links to or from `address` (an ALSA port that left: its number may be reused).
    func forget(_ address: PortAddress) {
        links = links.filter { $0.source != address && $0.destination != address }
        closeUnlinkedInputs()
    }

    /// Keeps an output open to exactly the JACK `destinations` (those external nodes
    /// select), so the JACK connection is in place before the first message.
    func prepareOutputs(for destinations: Set<PortAddress>) {
        for (address, output) in outputs where !destinations.contains(address) {
            output.close()
            outputs[address] = nil
        }
        for address in destinations where outputs[address] == nil {
            _ = output(for: address)
        }
    }

    /// Sends `message` to the JACK destination at `address`. A failure is logged, not thrown:
    /// the caller is routing live MIDI.
    func send(_ message: MIDIMessage, to address: PortAddress) {
        guard let output = output(for: address) else { return }
        do {
            try output.send(message)
        } catch {
            log.warning("cannot send to \(output.connectedDestination?.description ?? "JACK"): \(error)")
        }
    }

    /// Every message received from JACK sources since the last call, by source, oldest first.
    func drain() -> [(source: PortAddress, message: MIDIMessage)] {
        var received: [(source: PortAddress, message: MIDIMessage)] = []
        for (address, input) in inputs.sorted(by: { $0.key < $1.key }) {
            received += input.drain().map { (address, $0.message) }
        }
        return received
    }

    // MARK: - server and ports

    private func connect() -> Bool {
        do {
            client = try JackMIDIClient(clientName: clientName)
        } catch {
            if !everPolled { log.info(error.description) }
            return false
        }
        log.info(everPolled ? "JACK server back: bridging JACK MIDI ports again"
                            : "JACK MIDI available: JACK ports appear as jack:CLIENT:PORT")
        return true
    }

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
            links = links.filter { $0.source != gone.address }
        }
        return changes
    }

    /// The server went away: abandons every JACK port of ours (see `abandoned`) and empties
    /// the table.
    private func dropServer() -> JackPortTable.Changes {
        abandoned += inputs.values.map { $0 as AnyObject } + outputs.values.map { $0 as AnyObject }
        if let client { abandoned.append(client) }
        inputs = [:]
        outputs = [:]
        links = []
        client = nil
        let changes = table.update(JackPortList(sources: [], destinations: []), excluding: [])
        log.warning("JACK server gone: dropped \(changes.left.count) JACK ports; looking for it every \(Int(Self.pollSeconds)) s")
        return changes
    }

    private func output(for address: PortAddress) -> JackMIDIOutput? {
        if let output = outputs[address] { return output }
        guard let client, let destination = table.jackName(at: address) else { return nil }
        do {
            let output = try client.openOutput(connectedTo: destination, portName: "out")
            outputs[address] = output
            return output
        } catch {
            log.warning("cannot open a JACK port to \(destination): \(error)")
            return nil
        }
    }

    private func closeUnlinkedInputs() {
        let linked = Set(links.map(\.source))
        for (address, input) in inputs where !linked.contains(address) {
            input.close()
            inputs[address] = nil
        }
    }
}
