
import MIDICore
import RenderCore

/// Where the router hands MIDI that leaves the graph: an instrument or effect node (to the
/// render ring) or an external node (to its ALSA port).
///
/// - Thread: owner (the MIDI input thread, called while the router routes).
public protocol RouteSink {
    /// Delivers `event` to `target`, a node of the graph the sink was made for (so a sink can
    /// resolve its destinations by `target.index`, once per graph).
    mutating func deliver(_ event: TimedMIDI, to target: RouteTarget)
}

/// Routes live MIDI through the hub's graph: from the source nodes whose selector matches the
/// sending port, through the MIDI processors (timestamps kept), to instruments and external
/// nodes. Tracks what sounds where (`SoundingNotes`) so that an unplugged device, a removed
/// node or a broken path is answered with exactly the right note-offs. A processor node's
/// values live in the graph, where everything else reads them; the processor is handed them
/// (`ParameterValues`) at each call.
///
/// - Thread: owner (the MIDI input thread, the state's owner); a plain value inside `HubCore`.
public struct MIDIRouter {
    public private(set) var graph: HubGraph
    public private(set) var sounding = SoundingNotes()
    /// The transport's tempo, for the arpeggiator's grid.
    public var clock = TempoClock(beatsPerMinute: 120)
    /// The playing song's beats (its tempo, from its start), which generating processors
    /// follow instead of `clock` while a song plays.
    public private(set) var songClock: TempoClock?
    /// Counts graph changes; a `Sender` is valid for the revision it was made in.
    public private(set) var revision = 0
    private var compiled = CompiledRoutes(.empty)
    /// The processor of each processor node, by node index.
    private var processors: [(any MIDIProcessor)?] = []
    /// The parameters of each processor node's processor, by node index (empty: no processor).
    private var processorInfos: [[ParameterInfo]] = []
    /// The sounding-notes slot of each sink node (by node index) for the events a processor
    /// node generates on its own (the arpeggiator), by processor node index.
    private var generatorSlots: [[SoundingNotes.Slot?]] = []
    /// The processor nodes that generate events by themselves, in topological order.
    private var generators: [Int] = []
    /// Processor output buffers, one per nesting depth, reused so routing allocates nothing.
    private var scratch: [[TimedMIDI]] = []
    private var generatedUntil: HostTime?

    /// The source nodes one sending port feeds, resolved once (selector matching is string
    /// work) and reused for its events while the graph stays the same (`isCurrent`), with the
    /// sounding-notes slots its notes are recorded in (so routing hashes no names).
    public struct Sender: Sendable {
        let sources: [Int]
        /// The ids of those source nodes (what `from:` in a mapping names).
        public let sourceIDs: [NodeID]
        /// Per source: the slot of each sink node, by node index (`nil`: not a sink).
        let slots: [[SoundingNotes.Slot?]]
        let revision: Int

        /// Whether the port feeds any source node.
        public var feedsGraph: Bool { !sources.isEmpty }
    }

    /// Makes the processors of LV2 MIDI effects (on a rebase: a prepared change brings its own).
    private let plugins: (any PluginDirectory)?

    /// - Throws: `ParameterError` when a processor node names an unknown parameter.
    public init(graph: HubGraph, plugins: (any PluginDirectory)? = nil) throws(ParameterError) {
        self.graph = .empty
        self.plugins = plugins
        try install(GraphChange(from: .empty, to: graph))
    }

    /// Resolves which source nodes `port` feeds in the current graph (and makes the slots
    /// for what it will hold).
    public mutating func sender(for port: PortDescriptor) -> Sender {
        let sources = compiled.sources(matching: port)
        let device = port.identity
        let slots = sources.map { slotsBySink(for: NoteOrigin(source: compiled.nodes[$0].id, device: device)) }
        return Sender(sources: sources, sourceIDs: sources.map { compiled.nodes[$0].id }, slots: slots, revision: revision)
    }

    /// The source nodes MIDI from `port` enters at, and the unit and external nodes their
    /// routes reach with nothing between, each with the channels that pass; nil when a route
    /// from them goes through a processor (whose output only routing here can make).
    public func directSinks(for port: PortDescriptor) -> (sources: [NodeID], sinks: [DirectRoute])? {
        let sources = compiled.sources(matching: port)
        var sinks: [DirectRoute] = []
        for source in sources {
            for hop in compiled.hops[source] {
                switch hop.kind {
                case .processor: return nil
                case .sink:
                    let target = compiled.targets[hop.target]
                    sinks.append(DirectRoute(node: target.id, index: target.index, isUnit: target.isUnit, channelMask: hop.channelMask))
                case .ignores: continue
                }
            }
        }
        return (sources.map { compiled.nodes[$0].id }, sinks)
    }

    /// Whether `sender` was resolved in the current graph (else resolve it again).
    public func isCurrent(_ sender: Sender) -> Bool {
        sender.revision == revision
    }

    /// Routes `message`, which arrived from `port` at `time` (the hub's clock).
    public mutating func route(_ message: MIDIMessage, from port: PortDescriptor, time: HostTime, into sink: inout some RouteSink) {
        route(message, from: sender(for: port), time: time, into: &sink)
    }

    /// Routes `message` from a port resolved with `sender(for:)`; a sender of an older graph
    /// (`isCurrent` false) routes nothing.
    public mutating func route(_ message: MIDIMessage, from sender: Sender, time: HostTime, into sink: inout some RouteSink) {
        guard isCurrent(sender) else { return }
        let event = TimedMIDI(time: time, message: message)
        for (source, slots) in zip(sender.sources, sender.slots) {
            forward(event, from: source, slots: slots, depth: 0, into: &sink)
        }
    }

    /// Lets generating processors (the arpeggiator) emit their events up to `now`.
    public mutating func generate(until now: HostTime, into sink: inout some RouteSink) {
        let start = generatedUntil ?? now
        generatedUntil = now
        guard now > start else { return }
        for index in generators {
            var output = takeScratch(depth: 0)
            let parameters = values(ofProcessorAt: index)
            processors[index]?.generate(from: start, to: now, clock: songClock ?? clock, parameters: parameters, into: &output)
            for event in output { forward(event, from: index, slots: generatorSlots[index], depth: 1, into: &sink) }
            scratch[0] = output
        }
    }

    /// When a processor next generates an event, `nil` for none planned. A plain loop: a closure over `self` would copy the router (every processor) per call.
    /// - Thread: owner.
    public func nextGeneratedTime() -> HostTime? {
        let clock = songClock ?? self.clock
        var next: HostTime?
        for index in generators {
            guard let time = processors[index]?.nextGeneratedTime(clock: clock, parameters: values(ofProcessorAt: index)) else { continue }
            if next.map({ time < $0 }) ?? true { next = time }
        }
        return next
    }

    /// From `time` on, generating processors follow `song` (a song's beats), or the hub's
    /// clock again with `nil`; their next steps move onto that clock's grid.
    public mutating func followSong(_ song: TempoClock?, at time: HostTime) {
        songClock = song
        let from = max(time, generatedUntil ?? time)  // steps before it were generated already
        for index in processors.indices {
            let parameters = values(ofProcessorAt: index)
            processors[index]?.regrid(at: from, clock: song ?? clock, parameters: parameters)
        }
    }

    /// Silences everything `device` holds, at every node it fed (it was unplugged).
    /// - Returns: the nodes that got note-offs.
    @discardableResult
    public mutating func unplug(_ device: PortIdentity, at time: HostTime, into sink: inout some RouteSink) -> [NodeID] {
        let releases = sounding.releaseDevice(device)
        send(releases, at: time, into: &sink)
        return releases.map(\.node)
    }

    /// Ends every sounding note (the panic trigger): note-offs for what the hub holds and all
    /// sound off (CC 120) at built-in nodes, sustain off and all notes off at external ones.
    public mutating func panic(at time: HostTime, into sink: inout some RouteSink) {
        var releases: [NodeRelease] = []
        for node in graph.nodes {
            switch node.body {
            case .unit:
                var release = sounding.release(node: node.id) ?? NodeRelease(node: node.id, messages: [])
                release.messages += (0..<16).map { MIDIMessage.controlChange(channel: $0, controller: 120, value: 0) }
                releases.append(release)
            case .external:
                _ = sounding.release(node: node.id)
                releases.append(.allNotesOff(node.id))
            default:
                continue
            }
        }
        send(releases, at: time, into: &sink)
    }

    /// Switches to `change.new` (made from the current graph): first sends the note-offs the
    /// change calls for, to the nodes of the current graph (which `sink` was made for), then
    /// keeps the processors of unchanged nodes and takes the new ones — those of `prepared`
    /// (the same change, worked out on the control side against this revision) or made here.
    /// - Throws: `ParameterError` for an unknown processor parameter; nothing changed then.
    public mutating func apply(_ change: GraphChange, prepared: PreparedGraphChange? = nil, at time: HostTime,
                               into sink: inout some RouteSink) throws(ParameterError) {
        precondition(prepared.map { $0.revision == revision } ?? true, "a prepared change of another graph")
        var fresh = self
        let releases = change.releases(&fresh.sounding)
        try fresh.install(change, prepared: prepared)
        send(releases, at: time, into: &sink)
        self = fresh
    }

    /// The processor node `id`'s parameters with their current values (`nil`: not a processor).
    public func processorParameters(_ id: NodeID) -> ParameterValues? {
        compiled.indexByID[id].flatMap { processors[$0] == nil ? nil : values(ofProcessorAt: $0) }
    }

    /// The values of the processor node at `index` as the graph keeps them (no parameters for
    /// a node that is no processor).
    /// - Thread: owner (on the MIDI path: no allocation).
    private func values(ofProcessorAt index: Int) -> ParameterValues {
        ParameterValues(processorInfos[index], set: graph.nodes[index].parameters)
    }

    /// Sets a processor parameter by name, clamped to its range, in the graph (where its
    /// processor reads it).
    /// - Throws: `ParameterError` for a name the processor does not have or a value that is no number.
    public mutating func setProcessorParameter(_ id: NodeID, _ name: String, to value: Float) throws(ParameterError) {
        guard let index = compiled.indexByID[id], processors[index] != nil else { throw ParameterError.unknown(name, known: []) }
        graph.setParameter(name, ofNodeAt: index, to: try values(ofProcessorAt: index).checked(name, value))
    }

    /// Keeps a value set at runtime in node `id`'s definition, so it is saved with the graph
    /// and restored at start (the node keeps running).
    public mutating func recordParameter(_ name: String, of id: NodeID, value: Float) {
        graph.setParameter(name, of: id, to: value)
    }

    /// Keeps the value of parameter `name` of the node at `index` of the graph (a mapped move,
    /// resolved: no search for the node).
    /// - Thread: owner.
    public mutating func setParameter(_ name: String, ofNodeAt index: Int, to value: Float) {
        graph.setParameter(name, ofNodeAt: index, to: value)
    }

    /// Changes the tempo at `time`, keeping the beat position (the arpeggiator's grid goes on).
    public mutating func setTempo(_ beatsPerMinute: Double, at time: HostTime) {
        clock = clock.changingTempo(to: beatsPerMinute, at: time)
    }

    private mutating func install(_ change: GraphChange, prepared: PreparedGraphChange? = nil) throws(ParameterError) {
        var kept: [NodeID: any MIDIProcessor] = [:]
        for (index, processor) in processors.enumerated() {
            if let processor { kept[compiled.nodes[index].id] = processor }
        }
        for node in change.stopped { kept[node.id] = nil }
        for node in change.started {
            if let made = prepared?.processors[node.id] {
                kept[node.id] = made
            } else if let made = try node.makeProcessor(plugins: plugins) {
                kept[node.id] = made
            }
        }
        compiled = prepared?.routes ?? CompiledRoutes(change.new)
        processors = compiled.nodes.map { kept[$0.id] }
        processorInfos = processors.map { $0?.parameterInfos ?? [] }
        graph = change.new
        revision += 1
        sounding.compact()
        generators = compiled.topologicalOrder.filter { processors[$0]?.generates == true }
        generatorSlots = compiled.nodes.indices.map { index in
            processors[index] == nil ? [] : slotsBySink(for: NoteOrigin(source: compiled.nodes[index].id))
        }
    }

    /// The slots of what `origin` holds at each sink node of the current graph, by node index.
    private mutating func slotsBySink(for origin: NoteOrigin) -> [SoundingNotes.Slot?] {
        var slots = [SoundingNotes.Slot?](repeating: nil, count: compiled.nodes.count)
        for index in compiled.sinks { slots[index] = sounding.slot(origin: origin, node: compiled.nodes[index].id) }
        return slots
    }

    /// Follows the hops leaving node `index`; `slots` (by node index) are the origin's.
    private mutating func forward(_ event: TimedMIDI, from index: Int, slots: [SoundingNotes.Slot?], depth: Int,
                                  into sink: inout some RouteSink) {
        for hop in compiled.hops[index] where hop.passes(channel: event.message.channel) {
            switch hop.kind {
            case .processor:
                var output = takeScratch(depth: depth)
                let parameters = values(ofProcessorAt: hop.target)
                processors[hop.target]?.process(event, parameters: parameters, into: &output)
                for produced in output { forward(produced, from: hop.target, slots: slots, depth: depth + 1, into: &sink) }
                scratch[depth] = output
            case .sink:
                if let slot = slots[hop.target] { sounding.record(event.message, at: slot) }
                sink.deliver(event, to: compiled.targets[hop.target])
            case .ignores:
                continue
            }
        }
    }

    /// The empty output buffer for `depth`, taken out of `scratch` (put it back when done).
    private mutating func takeScratch(depth: Int) -> [TimedMIDI] {
        while scratch.count <= depth { scratch.append([]) }
        var buffer: [TimedMIDI] = []
        swap(&buffer, &scratch[depth])
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Sends `releases` to their nodes in the current graph (before a change installs another).
    private func send(_ releases: [NodeRelease], at time: HostTime, into sink: inout some RouteSink) {
        for release in releases {
            guard let index = compiled.indexByID[release.node] else { continue }
            for message in release.messages { sink.deliver(TimedMIDI(time: time, message: message), to: compiled.targets[index]) }
        }
    }
}
