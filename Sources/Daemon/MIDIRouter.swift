import Hub
import MIDICore

/// Where the router hands MIDI that leaves the graph: an instrument or effect node (to the
/// render ring) or an external node (to its ALSA port).
///
/// - Thread: MIDI input (called while the router routes).
public protocol RouteSink {
    mutating func deliver(_ event: TimedMIDI, to node: GraphNode)
}

/// Routes live MIDI through the hub's graph: from the source nodes whose selector matches the
/// sending port, through the MIDI processors (timestamps kept), to instruments and external
/// nodes. Tracks what sounds where (`SoundingNotes`) so that an unplugged device, a removed
/// node or a broken path is answered with exactly the right note-offs.
///
/// - Thread: MIDI input (a plain value; the daemon keeps it under its lock).
public struct MIDIRouter {
    public private(set) var graph: HubGraph
    public private(set) var sounding = SoundingNotes()
    /// The transport's tempo, for the arpeggiator's grid.
    public var clock = TempoClock(beatsPerMinute: 120)
    private var processors: [NodeID: any MIDIProcessor] = [:]
    private var generatedUntil: Double?

    /// - Throws: `ParameterError` when a processor node names an unknown parameter.
    public init(graph: HubGraph) throws(ParameterError) {
        self.graph = .empty
        try install(GraphChange(from: .empty, to: graph))
    }

    /// Routes `message`, which arrived from `port` at `time` (seconds on the hub's clock).
    public mutating func route(_ message: MIDIMessage, from port: PortDescriptor, time: Double, into sink: inout some RouteSink) {
        for node in graph.nodes {
            guard case .source(let selector) = node.body, selector.matches(port) else { continue }
            forward(TimedMIDI(time: time, message: message), from: node.id,
                    origin: NoteOrigin(source: node.id, device: port.identity), into: &sink)
        }
    }

    /// Lets generating processors (the arpeggiator) emit their events up to `now`.
    public mutating func generate(until now: Double, into sink: inout some RouteSink) {
        let start = generatedUntil ?? now
        generatedUntil = now
        guard now > start else { return }
        for id in graph.topologicalOrder {
            guard var processor = processors[id] else { continue }
            var output: [TimedMIDI] = []
            processor.generate(from: start, to: now, clock: clock, into: &output)
            processors[id] = processor
            for event in output { forward(event, from: id, origin: NoteOrigin(source: id), into: &sink) }
        }
    }

    /// Silences everything `device` holds, at every node it fed (it was unplugged).
    /// - Returns: the nodes that got note-offs.
    @discardableResult
    public mutating func unplug(_ device: PortIdentity, at time: Double, into sink: inout some RouteSink) -> [NodeID] {
        let releases = sounding.releaseDevice(device)
        send(releases, in: graph, at: time, into: &sink)
        return releases.map(\.node)
    }

    /// Switches to `change.new`: first sends the note-offs the change calls for (to the nodes
    /// of the old graph), then keeps the processors of unchanged nodes and makes new ones.
    /// - Throws: `ParameterError` for an unknown processor parameter; nothing changed then.
    public mutating func apply(_ change: GraphChange, at time: Double, into sink: inout some RouteSink) throws(ParameterError) {
        var fresh = self
        try fresh.install(change)
        let releases = sounding.copyReleases(change)
        send(releases.messages, in: change.old, at: time, into: &sink)
        fresh.sounding = releases.remaining
        self = fresh
    }

    /// The processor node `id`'s parameters with their current values (`nil`: not a processor).
    public func processorParameters(_ id: NodeID) -> ParameterValues? {
        processors[id]?.parameters
    }

    /// Sets a processor parameter by name (clamped to its range).
    /// - Throws: `ParameterError.unknown` for a name the processor does not have.
    public mutating func setProcessorParameter(_ id: NodeID, _ name: String, to value: Float) throws(ParameterError) {
        guard var processor = processors[id] else { throw ParameterError.unknown(name, known: []) }
        try processor.set(name, to: value)
        processors[id] = processor
        recordParameter(name, of: id, value: value)
    }

    /// Keeps a value set at runtime in node `id`'s definition, so it is saved with the graph
    /// and restored at start (the node keeps running).
    public mutating func recordParameter(_ name: String, of id: NodeID, value: Float) {
        graph = graph.settingParameter(name, of: id, to: value)
    }

    /// Changes the tempo at `time`, keeping the beat position (the arpeggiator's grid goes on).
    public mutating func setTempo(_ beatsPerMinute: Double, at time: Double) {
        clock = clock.changingTempo(to: beatsPerMinute, atSeconds: time)
    }

    private mutating func install(_ change: GraphChange) throws(ParameterError) {
        var kept = processors
        for node in change.stopped { kept[node.id] = nil }
        for node in change.started {
            guard case .processor(let config) = node.body else { continue }
            kept[node.id] = try config.makeProcessor(values: node.parameters)
        }
        processors = kept
        graph = change.new
    }

    private mutating func forward(_ event: TimedMIDI, from id: NodeID, origin: NoteOrigin, into sink: inout some RouteSink) {
        for route in graph.routes(from: id) where route.passes(channel: event.message.channel) {
            guard let target = graph.node(route.to) else { continue }
            switch target.body {
            case .processor:
                guard var processor = processors[target.id] else { continue }
                var output: [TimedMIDI] = []
                processor.process(event, into: &output)
                processors[target.id] = processor
                for produced in output { forward(produced, from: target.id, origin: origin, into: &sink) }
            case .unit, .external:
                sounding.record(event.message, origin: origin, node: target.id)
                sink.deliver(event, to: target)
            case .source, .output:
                continue
            }
        }
    }

    private func send(_ releases: [NodeRelease], in graph: HubGraph, at time: Double, into sink: inout some RouteSink) {
        for release in releases {
            guard let node = graph.node(release.node) else { continue }
            for message in release.messages { sink.deliver(TimedMIDI(time: time, message: message), to: node) }
        }
    }
}

extension SoundingNotes {
    /// `change.releases` on a copy: the messages and the state without the released notes.
    func copyReleases(_ change: GraphChange) -> (messages: [NodeRelease], remaining: SoundingNotes) {
        var copy = self
        let messages = change.releases(&copy)
        return (messages, copy)
    }
}
