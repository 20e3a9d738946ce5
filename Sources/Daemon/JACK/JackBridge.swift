import Hub
import MIDICore
import AudioHost
import RtMidiBackend

/// The daemon's JACK side: finds the JACK server and follows its MIDI ports (RtMidi has no
/// registration callback: `JackWatch` reads them on its own thread), and carries MIDI
/// between them and the hub. Everything that waits on jackd — a look for the server, a port
/// reading, opening or closing a port, writing to a port — happens off the MIDI input thread:
/// the watch's thread and the port thread (`JackPorts`, "midihub-jack-ports", fed through a
/// lock-free ring). The owner keeps the model (which ports exist, which connections are
/// carried) and drains the inputs.
///
/// - JACK → hub: a JACK source connected to an ALSA destination (`midihub:in` or any
///   other) gets a `JackMIDIInput` of the daemon's, connected to it in JACK (opened on the
///   port thread and handed back); its input signals `wakeDescriptors` and the MIDI input
///   thread drains it (`drain`).
/// - hub → JACK: a JACK destination an external node selects gets a `JackMIDIOutput` of the
///   daemon's on the port thread, connected to it in JACK (`prepareOutputs`), and `send`
///   hands the message to that thread, which writes it.
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
    /// How often the server is looked for, or its port list read.
    static let pollSeconds = 1.0

    private let log: DaemonLog
    private var clients: JackClients?
    private var table = JackPortTable()
    /// Counts changes of the JACK port list (`HubDaemon.JackLaneBasis`).
    private(set) var tableRevision = 0
    private var inputs: [PortAddress: JackMIDIInput] = [:]
    /// The sources whose inputs the port thread is opening.
    private var openingInputs: Set<PortAddress> = []
    /// The destinations the port thread keeps an output open to (or tries to).
    private var outputs: Set<PortAddress> = []
    /// Connections from a JACK source to an ALSA destination that the bridge carries.
    private(set) var fromJack: Set<Connection> = []
    /// Connections from an ALSA source to a JACK destination that the bridge carries.
    private(set) var forwards = JackForwards()
    /// JACK → JACK connections made in JACK (`nil`: no server).
    private var peerLinks: JackPeerLinks?
    /// The JACK destinations external nodes play (`prepareOutputs`).
    private var nodeDestinations: Set<PortAddress> = []
    /// Signalled by the JACK inputs on JACK's process thread, and by the port thread when it
    /// opened one (`nil`: no eventfd, the poll timeout paces the draining).
    private let wakeup: WakeupEvent?
    /// The inputs of servers that died, kept, never closed, for the life of the process (see
    /// `JackWatch`): a few kB per server loss.
    private var abandoned: [JackMIDIInput] = []
    private let watch: JackWatch
    private var everReported = false
    private let ports: JackPorts
    /// Opens, closes and writes to the JACK ports, off the owner, in the order asked.
    private let portThread: HandoffThread<JackPortWork>
    private var opened: [OpenedJackInput] = []
    /// While the hub plays into JACK: the hub's JACK client reads the JACK sources in its
    /// process callback (`JackMIDILane`) instead of the bridge's inputs; `nil` otherwise.
    private(set) var lane: JackMIDILane?
    private var laneReceived: [JackMIDILane.Received] = []

    /// - Parameter clientName: the JACK client name of the daemon's JACK ports.
    /// - Thread: control (main, while the daemon starts).
    init(log: DaemonLog, clientName: String) {
        self.log = log
        let ownPorts = ControlLock<Set<JackPortName>>([], name: "JackBridge.ownPorts")
        watch = JackWatch(interval: Self.pollSeconds, clientName: clientName, ownPorts: ownPorts)
        do {
            wakeup = try WakeupEvent()
        } catch {
            log.warning("JACK input is drained every poll turn only: \(error)")
            wakeup = nil
        }
        let ports = JackPorts(log: log, ownPorts: ownPorts, wakeup: wakeup)
        self.ports = ports
        portThread = HandoffThread(name: "midihub-jack-ports", capacity: 4096) { items, lost, now in
            ports.run(items, lost: lost, now: now)
            return nil
        }
    }

    /// Takes `lane` (the hub's JACK client's MIDI ports) as the bridge's: it wakes the owner's
    /// poll when a JACK period brought MIDI, as the bridge's inputs do, and its ports are left
    /// out of the port listings, as theirs are.
    /// - Thread: control (at start, before `start`).
    func adopt(_ lane: JackMIDILane) {
        if let wakeup { lane.wakeOwner { wakeup.signal() } }
        watch.leaveOut { lane.owns($0) }
    }

    /// The JACK ports present, as the hub's descriptors.
    var descriptors: [PortDescriptor] { table.descriptors }

    /// Every connection with a JACK end that the bridge carries or made.
    var connections: Set<Connection> { fromJack.union(forwards.connections).union(peerLinks?.connections ?? []) }

    /// Descriptors the MIDI input thread polls besides the sequencer: readable when a JACK
    /// input has events to drain, or one was opened.
    var wakeDescriptors: [Int32] { wakeup.map { [$0.descriptor] } ?? [] }

    /// At start, on the main thread before the MIDI input thread runs: looks for a server
    /// here (so the rules see the JACK ports from the start, and the one log line comes
    /// first), then starts the watch, which looks again every `pollSeconds` while there is
    /// no server and reads the ports while there is.
    /// - Returns: the JACK ports that appeared.
    /// - Thread: control (main, at start, before the MIDI input thread runs).
    func start() -> JackPortTable.Changes {
        let changes = adopt(watch.look())
        watch.start()
        return changes
    }

    /// Stops the watch and, once it has done what waits, the port thread.
    /// - Thread: control (main, after the MIDI input thread ended).
    func stop() {
        watch.stop()
        portThread.stop()
    }

    /// Makes the calling thread (the owner) the one that hands work to the port thread
    /// without a lock; `releaseProducer` ends that.
    /// - Thread: owner, first and last thing.
    func adoptProducer() {
        portThread.adoptProducer()
    }

    func releaseProducer() {
        portThread.releaseProducer()
    }

    /// Takes what the watch found since the last turn (a server that answered or went away,
    /// the ports of the server when they changed) and the inputs the port thread opened.
    /// Lock-free: nothing here waits on jackd.
    /// - Returns: whether JACK ports appeared or left.
    func poll() -> Bool {
        takeOpenedInputs()
        var changed = false
        if let report = watch.take() { changed = !adopt(report).isEmpty }
        if let reading = watch.takePorts(), reading.identity == clients?.identity {
            changed = !update(reading.ports).isEmpty || changed
        }
        return changed
    }

    /// Acts on a report of the watch: takes the clients it opened and the ports it read, drops
    /// the JACK side when the server went away, or logs why there is no JACK side (the first
    /// time only).
    private func adopt(_ report: JackWatch.Report) -> JackPortTable.Changes {
        defer { everReported = true }
        switch report {
        case .unavailable(let reason), .openFailed(let reason):
            if !everReported { log.info(reason) }
            return JackPortTable.Changes()
        case .opened(let opened, let ports):
            clients = opened
            peerLinks = JackPeerLinks(connector: opened.connector)
            log.info(everReported ? "JACK server back: bridging JACK MIDI ports again"
                                  : "JACK MIDI available: JACK ports appear as jack:CLIENT:PORT")
            return update(ports)
        case .gone(let identity):
            guard identity == clients?.identity else { return JackPortTable.Changes() }
            return dropServer()
        }
    }

    /// Carries `connection`'s JACK source to its ALSA destination: has the port thread open
    /// an input from the source (a failure is logged there).
    /// - Throws: `JackMIDIError` when the source is gone.
    func link(_ connection: Connection) throws(JackMIDIError) {
        guard let clients, let source = table.jackName(at: connection.source) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        if lane == nil, inputs[connection.source] == nil, !openingInputs.contains(connection.source) {
            openingInputs.insert(connection.source)
            portThread.post(.openInput(connection.source, name: source, on: clients))
        }
        fromJack.insert(connection)
    }

    /// Stops carrying `connection`; closes the source's input when nothing else uses it.
    func unlink(_ connection: Connection) {
        fromJack.remove(connection)
        closeUnusedPorts()
    }

    /// Carries `connection`'s ALSA source to its JACK destination: has the port thread open
    /// the output to the destination (the caller subscribes the source to `midihub:in`).
    /// - Throws: `JackMIDIError` when the destination is gone.
    func forward(_ connection: Connection) throws(JackMIDIError) {
        try openOutput(for: connection.destination, quietly: false)
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
        for address in destinations where !outputs.contains(address) {
            try? openOutput(for: address, quietly: false)
        }
    }

    /// Hands `message` for the JACK destination at `address` to the port thread; never
    /// waits. A failure is logged there: the caller is routing live MIDI.
    func send(_ message: MIDIMessage, to address: PortAddress) {
        guard outputs.contains(address) || (try? openOutput(for: address, quietly: false)) != nil else { return }
        portThread.post(.send(message, to: address))
    }

    /// A message from a JACK source; what the hub's JACK client already played of it (see
    /// `JackMIDILane.Received`: the unit nodes and the JACK ports its source plays directly).
    struct Received {
        var source: PortAddress
        var message: MIDIMessage
        var servedUnits = false
        var servedPorts = false
    }

    /// Every message received from JACK sources since the last call, by source, oldest first.
    /// `signalled`: the owner's poll found the wake-up descriptor readable; its signal is
    /// cleared first, so input arriving meanwhile signals again.
    func drain(signalled: Bool) -> [Received] {
        if signalled { wakeup?.reset() }
        var received: [Received] = []
        if let lane {
            lane.drain(into: &laneReceived)
            received += laneReceived.map {
                Received(source: JackMIDIKey.address($0.key), message: $0.message, servedUnits: $0.servedUnits, servedPorts: $0.servedPorts)
            }
            laneReceived.removeAll(keepingCapacity: true)
        }
        for (address, input) in inputs.sorted(by: { $0.key < $1.key }) {
            received += input.drain().map { Received(source: address, message: $0.message) }
        }
        return received
    }

    /// Reads the JACK sources through `lane` (the hub plays into JACK: its client's process
    /// callback reads them) or, with `nil`, through inputs of the bridge's own again. The
    /// inputs give way at once; the lane's ports are registered on its own queue.
    func read(through lane: JackMIDILane?) {
        guard lane !== self.lane else { return }
        self.lane = lane
        if lane != nil {
            for (_, input) in inputs { if let clients { portThread.post(.closeInput(input, on: clients)) } }
            inputs = [:]
        } else {
            for source in Set(fromJack.map(\.source)) where !openingInputs.contains(source) {
                guard let clients, let name = table.jackName(at: source) else { continue }
                openingInputs.insert(source)
                portThread.post(.openInput(source, name: name, on: clients))
            }
        }
    }

    /// The JACK name of the port at `address`, while it is there.
    func jackName(at address: PortAddress) -> JackPortName? { table.jackName(at: address) }

    /// The JACK sources the bridge carries, with their JACK names: what the lane reads.
    var linkedSources: [(address: PortAddress, name: JackPortName)] {
        Set(fromJack.map(\.source)).sorted().compactMap { address in table.jackName(at: address).map { (address, $0) } }
    }

    // MARK: - server and ports

    /// Takes the inputs the port thread opened: each one still wanted joins `inputs`, any
    /// other goes back to be closed (or, of a server that went away, is kept).
    private func takeOpenedInputs() {
        guard ports.openedInputs.count > 0 else { return }
        ports.openedInputs.popAll(into: &opened)
        defer { opened.removeAll(keepingCapacity: true) }
        for input in opened {
            openingInputs.remove(input.address)
            if input.server != clients?.identity {
                abandoned.append(input.input)
            } else if lane == nil, inputs[input.address] == nil, fromJack.contains(where: { $0.source == input.address }) {
                inputs[input.address] = input.input
            } else if let clients {
                portThread.post(.closeInput(input.input, on: clients))
            }
        }
    }

    /// Replaces the table with the server's ports `list`; the ports that left lose their
    /// inputs, outputs and connections, and node destinations that came back get outputs.
    private func update(_ list: JackPortList) -> JackPortTable.Changes {
        let changes = table.update(list)
        tableRevision &+= 1
        for gone in changes.left {
            if let input = inputs.removeValue(forKey: gone.address), let clients { portThread.post(.closeInput(input, on: clients)) }
            if outputs.remove(gone.address) != nil { portThread.post(.closeOutput(gone.address)) }
            fromJack = fromJack.filter { $0.source != gone.address }
            _ = forwards.removeAll(touching: gone.address)
        }
        peerLinks?.refresh(in: table)
        for appeared in changes.appeared where nodeDestinations.contains(appeared.address) && !outputs.contains(appeared.address) {
            try? openOutput(for: appeared.address, quietly: true)
        }
        return changes
    }

    /// The server went away: abandons every JACK port of ours (see `abandoned`) and empties
    /// the table.
    private func dropServer() -> JackPortTable.Changes {
        abandoned += inputs.values
        portThread.post(.abandonOutputs)
        inputs = [:]
        openingInputs = []
        outputs = []
        fromJack = []
        forwards = JackForwards()
        clients = nil
        peerLinks = nil
        let changes = table.update(JackPortList(sources: [], destinations: []))
        tableRevision &+= 1
        log.warning("JACK server gone: dropped \(changes.left.count) JACK ports; looking for it every \(Int(Self.pollSeconds)) s")
        return changes
    }

    /// Has the port thread open an output to the JACK destination at `address`.
    /// - Throws: `JackMIDIError.unavailable` when there is no server or no such destination.
    private func openOutput(for address: PortAddress, quietly: Bool) throws(JackMIDIError) {
        guard !outputs.contains(address) else { return }
        guard let clients, let destination = table.jackName(at: address) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        outputs.insert(address)
        portThread.post(.openOutput(address, name: destination, on: clients, quietly: quietly))
    }

    private func release(_ releases: [MIDIMessage], at destination: PortAddress) {
        for message in releases { send(message, to: destination) }
    }

    /// Closes the inputs no connection reads and the outputs no node or connection feeds.
    private func closeUnusedPorts() {
        let linked = Set(fromJack.map(\.source))
        for (address, input) in inputs where !linked.contains(address) {
            if let clients { portThread.post(.closeInput(input, on: clients)) }
            inputs[address] = nil
        }
        for address in outputs where !nodeDestinations.contains(address) && !forwards.feeds(address) {
            portThread.post(.closeOutput(address))
            outputs.remove(address)
        }
    }
}
