import AudioHost
import Foundation
import Hub
import MIDICore
import RenderCore

/// The daemon's audio side: the render engine played by an `AudioDriver`, and the render
/// nodes of the graph's instruments and effects. A graph change is compiled on the control
/// side into a new `RenderProgram` and swapped in with the engine's crossfade; nodes that
/// did not change keep their instance (and their sounding voices) and their render id, so
/// live events already queued address them in either program. A new or replaced node gets
/// an id that neither the running nor the previous program uses.
///
/// The program is wired as the graph's audio routes say (`HubGraph.audioRoutes`): an
/// effect processes what is routed into it, and the output sums what is routed to an
/// output node of the main device. Each other device an output names gets a `SideOutput`
/// — an `AudioOutputFeed` (another sound card), or in JACK a `JackOutputNode` (ports of its
/// own) — whose node in the program sums what is routed to it.
///
/// - Thread: owner (the state's owner, the MIDI input thread, which also serializes `live` pushes).
final class AudioRack {
    private(set) var driver: AudioDriver
    private let engine = RenderEngine()
    private let catalog: NodeCatalog
    /// What is installed (published with the view for the control side's next compile).
    private(set) var layout = RackLayout()
    /// The nodes whose instances got the graph's values when they joined (later values come
    /// as they are set). The values themselves live in one place, the graph (`HubCore`).
    private var started: Set<NodeID> = []
    /// Nodes the control side made and prepared for the next install (`offer`).
    private var offered = PreparedNodes()
    /// The program the control side compiled for the next install (`offer`).
    private var offeredProgram: CompiledRack?
    /// The node whose output an audio recording takes (`nil`: the master output).
    private var recordedNode: NodeID?
    /// Whether the daemon has logged that the render thread left realtime priority.
    var reportedRealtimeDrop = false
    /// The device's underruns the daemon has logged, and when it last looked (`reportUnderruns`).
    var reportedUnderruns = 0
    var lastUnderrunCheck = HostTime.distantPast
    /// The changes of JACK's transport the core was told of (`passJackTransport`).
    var seenJackTransportChanges = 0
    /// Whether the hub is JACK's timebase master (`transport: lead`, `leadJackTransport`).
    var leadsJackTransport = false

    init(driver: AudioDriver, catalog: NodeCatalog) {
        self.driver = driver
        self.catalog = catalog
        if case .jack = driver.target { layout.playsInJack = true }
    }

    /// The installed program's unit nodes as lists show them (parameters, outputs).
    var rendered: RenderedNodes { layout.rendered }

    /// Render id (`RenderEvent.node`) of each unit node of the running program.
    var renderIDs: [NodeID: UInt16] { layout.renderIDs }

    /// Hands over what the control side made for the next install: the nodes it prepared
    /// (a node that install starts with the same id and body takes its prepared instance
    /// instead of one made here) and the program it compiled (installed as it is when it was
    /// compiled for the same graph against the layout installed now). `dropOffer` (after the
    /// change) lets go of what was not used.
    func offer(_ prepared: PreparedNodes, program: CompiledRack?) {
        offered = prepared
        offeredProgram = program
    }

    /// Lets go of an offer the change did not use (a refused change): the sound cards opened
    /// for its program are closed.
    func dropOffer() {
        offered = PreparedNodes()
        if let unused = offeredProgram { CompiledRack.stop(unused.openedFeeds) }
        offeredProgram = nil
    }

    /// The format the program renders in.
    var renderFormat: RenderFormat { driver.renderFormat }

    /// Installs the program for `graph` — the one the control side compiled for it (`offer`)
    /// when the layout is still the one it was compiled against, else compiled here (its
    /// audio `routes` worked out on the control side; `nil`: here) — and starts the render
    /// thread on the first call. A node the graph starts gets the graph's values.
    /// - Returns: warnings to log (realtime priority refused, a node no output hears).
    func install(_ graph: HubGraph, stopped: [GraphNode], routes: AudioRoutes? = nil) throws -> [String] {
        defer { dropOffer() }
        let compiled: CompiledRack
        if let ready = offeredProgram, ready.base == layout.generation, ready.graph == graph {
            compiled = ready
            offeredProgram = nil
        } else {
            compiled = layout.compile(graph, stopped: stopped, routes: routes ?? graph.audioRoutes, offered: offered,
                                      catalog: catalog, format: driver.renderFormat)
        }
        return try commit(compiled, stopped: stopped)
    }

    /// Swaps `compiled`'s program in and takes its layout.
    private func commit(_ compiled: CompiledRack, stopped: [GraphNode]) throws -> [String] {
        for node in stopped { started.remove(node.id) }
        engine.install(compiled.program)
        layout = compiled.layout
        CompiledRack.stop(compiled.retiredFeeds)
        started = started.filter { layout.renderIDs[$0] != nil }
        if recordedNode != nil { record(recordedNode) }
        var warnings = compiled.unheardWarnings
        for node in compiled.graph.nodes where layout.renderIDs[node.id] != nil && !started.contains(node.id) {
            started.insert(node.id)
            for (name, value) in node.parameters { setParameter(node.id, name, to: value) }
            if case .alsa = driver.target, let input = layout.instances[node.id] as? JackInputNode {
                warnings.append("node '\(node.id)' takes its sound from JACK ('\(input.source)'), and the hub plays to ALSA: "
                                + "it is silent (fix: serve --audio jack)")
            }
        }
        guard !driver.isRunning else { return warnings }
        if case .denied(let warning) = try driver.start(engine: engine) { warnings.append(warning) }
        return warnings
    }

    /// Points the driver's tap at node `id`'s output (`nil`: the master output; an output
    /// node on another device: what that device plays); while that node is out of the graph
    /// the tap takes silence, back in it takes it again.
    func record(_ id: NodeID?) {
        recordedNode = id
        driver.tap.source = id.map { (layout.renderIDs[$0] ?? layout.outputFeedIDs[$0]).map(AudioTap.Source.node) ?? .silence } ?? .master
    }

    /// The render node of unit `id` in the installed program, if it has one.
    func instance(of id: NodeID) -> (any Node)? { layout.instances[id] }

    /// Whether node `id` is a render node of the running program, or an output node on
    /// another device (an audio recording can take its output).
    func isRendered(_ id: NodeID) -> Bool { layout.renderIDs[id] != nil || layout.outputFeedIDs[id] != nil }

    /// Stops the driver whose playback failed, closing its device so that it can be opened
    /// again. Does nothing more once stopped.
    func releaseDevice() {
        try? driver.stop()
    }

    /// Plays the same engine on `newDriver` — the device opened again, on a worker, after
    /// playback failed: the nodes keep their voices and parameters.
    /// - Returns: a warning to log (realtime priority refused), if any.
    /// - Throws: `PCMError` when the render thread cannot start (the rack stays silent).
    func adopt(_ newDriver: AudioDriver) throws -> String? {
        let format = driver.renderFormat, tempo = driver.tempo
        driver = newDriver
        driver.tempo = tempo
        reportedRealtimeDrop = false
        reportedUnderruns = 0
        seenJackTransportChanges = 0
        leadsJackTransport = false
        if driver.renderFormat != format {
            let program = layout.program
            engine.install(RenderProgram(nodes: program.nodes, ids: program.ids, wiring: program.wiring,
                                         format: driver.renderFormat))
            layout.generation += 1  // a program compiled for the old format is not installed
        }
        if case .denied(let warning) = try driver.start(engine: engine) { return warning }
        return nil
    }

    /// Sends a parameter change to unit `id` through the live ring, taking effect at the frame
    /// of `time` (the monotonic clock: the arrival of the controller move that made it,
    /// so it lands with a note that arrived with it; staged until `publishLive`), by default now
    /// (pushed at once).
    /// - Returns: the value set (clamped), or `nil` when the node or parameter is unknown.
    @discardableResult
    func setParameter(_ id: NodeID, _ name: String, to value: Float, at time: HostTime? = nil) -> Float? {
        guard let (renderID, info) = layout.parameter(name, of: id) else { return nil }
        let clamped = info.clamp(value)
        send(.parameter(node: renderID, id: info.id, value: clamped), at: time)
        return clamped
    }

    /// Sends a resolved parameter change (`HubEffect.setResolvedParameter`): node `id` at
    /// `index` of the installed graph, `parameter` its type's, `value` clamped; at the frame
    /// of `time` like `setParameter`. No name is looked up; a node the installed program does
    /// not have at that index (audio opened later, another graph) goes by name instead.
    func setParameter(atIndex index: Int, of id: NodeID, _ parameter: ParameterInfo, to value: Float, at time: HostTime) {
        let byGraphIndex = layout.byGraphIndex
        guard byGraphIndex.indices.contains(index), byGraphIndex[index].id == id, let renderID = byGraphIndex[index].renderID else {
            setParameter(id, parameter.name, to: value, at: time)
            return
        }
        send(.parameter(node: renderID, id: parameter.id, value: value), at: time)
    }

    private func send(_ event: RenderEvent, at time: HostTime?) {
        if let time { driver.live.stage(event, arrival: time) } else { driver.live.push(event) }
    }

    /// Plays `message` on unit `id`, stamped with its arrival time (the monotonic clock);
    /// staged until `publishLive`.
    func play(_ message: MIDIMessage, on id: NodeID, at time: HostTime) {
        guard let renderID = renderIDs[id] else { return }
        driver.live.stage(message, node: renderID, arrival: time)
    }

    /// Lets the render thread take every event `play` and `setParameter(at:)` staged since
    /// the last call, together: the owner calls it after each batch of input it handled.
    func publishLive() {
        driver.live.publish()
    }

    // MARK: - The transport's clock and events

    /// Frames and host time at the device's rate.
    var timeBase: TimeBase { TimeBase(sampleRate: driver.settings.sampleRate) }

    /// The audio rendered so far as a clock (frame 0 at `HostTime.zero`): the transport's
    /// clock while audio plays (`nil` when it does not). A frame rendered at this clock time
    /// is heard `outputDelay` later.
    var renderedTime: TransportTime? {
        driver.isRunning ? TransportTime(sinceOrigin: timeBase.duration(at: driver.framesRendered)) : nil
    }

    /// From rendering a frame to hearing it: the device's buffer.
    var outputDelay: HostDuration { timeBase.duration(ofFrames: Int64(driver.settings.bufferFrames)) }

    /// One block: the render thread may already be rendering the block after
    /// `renderedTime`, so events are scheduled later than that.
    var blockLength: HostDuration { timeBase.duration(ofFrames: Int64(driver.blockFrames)) }

    /// Plays `message` on unit `id` at the exact frame of `time` (on `renderedTime`'s clock).
    func schedule(_ message: MIDIMessage, on id: NodeID, at time: TransportTime) {
        guard let renderID = renderIDs[id] else { return }
        driver.sequenced.push(message, node: renderID, frame: timeBase.nearestFrame(after: time.sinceOrigin))
    }

    /// From `time` (on `renderedTime`'s clock) on, nodes see the song's timeline `host` (a
    /// stopped one hands the timeline back to live playing).
    func scheduleTimeline(_ host: HostSync, at time: TransportTime) {
        driver.sequenced.pushTimeline(host, frame: timeBase.nearestFrame(after: time.sinceOrigin))
    }

    /// Drops the scheduled events that have not played yet.
    func cutSchedule() {
        driver.sequenced.cut()
    }

    /// Fades out and closes the device, then the other sound cards.
    /// - Thread: control (main, after the MIDI input thread ended).
    func stop() throws {
        defer {
            for (_, output) in layout.feeds { output.feed.stop() }
            layout.feeds = [:]
        }
        try driver.stop()
    }
}
