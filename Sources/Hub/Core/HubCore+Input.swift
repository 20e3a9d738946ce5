import MIDICore
import RenderCore

/// The core's one entry: every input, and what it does.
extension HubCore {
    /// Takes `input`: MIDI it sends goes into `sink`, effects for the shell are appended to
    /// `effects` (the MIDI path reuses one buffer: a plain message allocates nothing).
    /// - Throws: `HubRefusal` when a command is refused (nothing changed).
    /// - Thread: owner.
    public mutating func handle(_ input: HubInput, into sink: inout some RouteSink,
                                effects: inout [HubEffect]) throws(HubRefusal) {
        defer { refreshTurnReading() }
        switch input {
        case .midi(let message, let address, let time):
            live(message, from: address, at: time, into: &sink, effects: &effects)
        case .sequenced(let message, let time):
            routeSequenced(message, at: time, into: &sink)
        case .tick(let clock, let stamp):
            effects += tick(clock, stamp: stamp, into: &sink)
        case .portsListed(let list, let senders, let connections, let changed, let time):
            effects += listPorts(list, directSenders: senders, connections: connections, changed: changed, at: time, into: &sink)
        case .connectionAnnounced(let connection, let connected, let time):
            ports.connectionAnnounced(connection, connected: connected, ports: portList, at: time)
        case .connectionApplied(let connection, let connected, let succeeded):
            ports.applied(connection, connected: connected, succeeded: succeeded)
        case .connectionEdited(let source, let destination, let connected):
            ports.reconciler.record(connected: connected, source: source, destination: destination)
            effects.append(.save(state))
        case .inputLost(let time):
            ports.inputLost(at: time)
        case .reconcile:
            effects += ports.plan(ports: portList, connections: connections).map(HubEffect.ports)
        case .editGraph(let edit, let time, let prepared):
            effects += try editGraph(edit, at: time, prepared: current(prepared), into: &sink)
        case .setParameter(let id, let name, let value, let time, let frameTime):
            effects += try setParameter(node: id, name, to: value, at: time, frameTime: frameTime).1
        case .setTempo(let beatsPerMinute, let time):
            effects += setTempo(beatsPerMinute, at: time)
        case .install(let patch, let time, let prepared):
            effects += try install(patch, at: time, prepared: current(prepared), into: &sink)
        case .setRules(let rules):
            effects += setRules(rules)
        case .setMappings(let list, let revision):
            guard revision == nil || revision == router.revision else { throw HubRefusal.stale("the mappings") }
            effects += setMappings(list)
        case .invitePeer(let peer):
            network = network.connecting(peer)
            effects += [.network(network), .save(state)]
        case .stopInviting(let peers):
            network = network.disconnecting(peers)
            effects += [.network(network), .save(state)]
        case .switchScene(let name, let time):
            effects += try switchScene(named: name, at: time).1
        case .scenePatchInstalled(let name):
            effects += scenePatchInstalled(scene: name)
        case .fire(let name, let time, let clock, let stamp):
            effects += try fire(trigger(named: name), at: time, clock: clock, stamp: stamp, into: &sink)
        case .learn(let id, let parameter, let seconds, let time):
            effects += try learn(node: id, parameter, seconds: seconds, at: time)
        case .cancelLearn:
            effects += cancelLearning()
        case .showValues(let sources):
            mappings.showValues(from: sources)
        case .transport(let command, let clock):
            effects += try transport(command, clock: clock)
        case .jackTransport(let rolling, let seconds, let clock):
            effects += followJackTransport(rolling: rolling, seconds: seconds, clock: clock)
        }
    }

    /// `handle` with the effects collected in an array of their own (for inputs off the MIDI path).
    /// - Thread: owner.
    public mutating func handle(_ input: HubInput, into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        var effects: [HubEffect] = []
        try handle(input, into: &sink, effects: &effects)
        return effects
    }

    /// A live message: the clock follower, a take, learning and the mappings read it; what
    /// they leave is routed from the sending port.
    private mutating func live(_ message: MIDIMessage, from address: PortAddress, at time: HostTime,
                               into sink: inout some RouteSink, effects: inout [HubEffect]) {
        let sender = sender(at: address)
        if Self.isClock(message) { followClock(message, from: address, at: time) }
        if transport.isRecording, sender?.feedsGraph == true { recordLive(message, from: address, at: time) }
        if map(message, from: address, sources: sender?.sourceIDs ?? [], at: time, into: &effects) { return }
        guard let sender, sender.feedsGraph else { return }
        router.route(message, from: sender, time: time, into: &sink)
    }

    /// Lets learning or the mappings read `message`; a built-in node's parameter lands at the
    /// frame of `time`, like a note that arrived with it.
    /// - Returns: whether learning or a mapping took the message (it goes no further).
    private mutating func map(_ message: MIDIMessage, from address: PortAddress, sources: [NodeID], at time: HostTime,
                              into effects: inout [HubEffect]) -> Bool {
        if learner != nil, learner?.observe(message, sources: sources, time: time) == true { return true }
        guard !mappings.isEmpty else { return false }
        mappedChanges.removeAll(keepingCapacity: true)
        let taken = mappings.handle(message, device: address.client << 8 | address.port, sources: sources, time: time,
                                    values: values, into: &mappedChanges)
        for change in mappedChanges { applyMapped(change, at: time, into: &effects) }
        if !mappedChanges.isEmpty { stateChanged = true }
        return taken
    }

    /// A turn of the owner's loop.
    private mutating func tick(_ clock: TransportClock, stamp: String, into sink: inout some RouteSink) -> [HubEffect] {
        var effects = takeMovedTriggers(clock: clock, stamp: stamp, into: &sink) + takeMasterCues(clock: clock)
        effects += serviceTransport(clock)
        let now = clock.monotonic(clock.now)
        followSongClock(until: now)
        router.generate(until: now, into: &sink)
        if learner != nil { effects += finishLearning(at: now) }
        if now - lastTriggerLights >= 1 { refreshTriggerLights(at: now) }
        if mappings.hasFeedbackDue, now - lastFeedback >= Self.feedbackInterval {
            lastFeedback = now
            for (mapping, messages) in mappings.takeFeedback(at: now, values: values) { effects.append(.feedback(mapping, messages)) }
        }
        if ports.takeSettle(at: now) {
            settlesOnListing = true
            effects.append(.listPorts)
        }
        if stateChanged {
            stateChanged = false
            effects.append(.save(state))
        }
        return effects
    }

    /// Controllers are shown their values at most this often: a fader swept over the
    /// socket sends its latest value, not every step.
    static let feedbackInterval: HostDuration = 0.02

    /// Keeps the port list; when announcements came, reports the ports that left and appeared
    /// (`PortsCore.portsChanged`): the notes a port that left held end at every node they
    /// reached (into `sink`).
    private mutating func listPorts(_ list: [PortDescriptor], directSenders: [PortDescriptor], connections: Set<Connection>,
                                    changed: Bool, at time: HostTime, into sink: inout some RouteSink) -> [HubEffect] {
        let before = portList
        portList = list
        self.connections = connections
        portsByAddress = Dictionary((list + directSenders).map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        portListings &+= 1
        senders.removeAll()
        var effects: [HubEffect] = []
        for effect in changed ? ports.portsChanged(from: before, to: list, at: time) : [] {
            guard case .portLeft(let gone) = effect else {
                effects.append(.ports(effect))
                continue
            }
            effects.append(.portLeft(gone, releasedNotesAt: router.unplug(gone.identity, at: time, into: &sink)))
        }
        if settlesOnListing {
            settlesOnListing = false
            effects += ports.settle(ports: portList, connections: connections).map(HubEffect.ports) + [.linkExternalNodes]
        }
        return effects
    }

    /// The source nodes the port at `address` feeds, resolved once per port list and graph;
    /// `nil` when the port is not known.
    private mutating func sender(at address: PortAddress) -> MIDIRouter.Sender? {
        if let known = senders.sender(at: address), router.isCurrent(known) { return known }
        guard let port = portsByAddress[address] else { return nil }
        let sender = router.sender(for: port)
        senders.keep(sender, for: address)
        return sender
    }
}
