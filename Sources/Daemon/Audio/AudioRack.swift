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
/// output node of the main device. Each other device an output names gets an
/// `AudioOutputFeed`, whose node in the program sums what is routed to it.
///
/// - Thread: owner (the state's owner, the MIDI input thread, which also serializes `live` pushes).
final class AudioRack {
    private(set) var driver: AudioDriver
    private let engine = RenderEngine()
    /// The nodes of the installed program, in program order, and their render ids.
    private var program: (nodes: [any Node], ids: [UInt16], wiring: AudioWiring) = ([], [], AudioWiring(inputs: [], toOutput: []))
    private let catalog: NodeCatalog
    private var instances: [NodeID: any Node] = [:]
    /// Render id (`RenderEvent.node`) of each unit node of the running program.
    private(set) var renderIDs: [NodeID: UInt16] = [:]
    /// Ids of the program before the running one: not reused yet (its events may be queued).
    private var previousIDs: Set<UInt16> = []
    /// The nodes whose instances got the graph's values when they joined (later values come
    /// as they are set). The values themselves live in one place, the graph (`HubCore`).
    private var started: Set<NodeID> = []
    /// Each node of the installed graph, by its index there, with its render id when it is
    /// rendered: how a resolved parameter (`setParameter(atIndex:)`) finds its node.
    private var byGraphIndex: [(id: NodeID, renderID: UInt16?)] = []
    /// The installed program's unit nodes as lists show them (parameters, outputs).
    private(set) var rendered = RenderedNodes()
    /// Nodes the control side made and prepared for the next install (`offer`).
    private var offered = PreparedNodes()
    /// The other sound cards the graph plays to, by device, and their nodes' render ids; kept
    /// across installs (a rewiring does not reopen them).
    private var feeds: [String: (feed: AudioOutputFeed, renderID: UInt16)] = [:]
    /// The render id of the feed each output node on another device plays through.
    private var outputFeedIDs: [NodeID: UInt16] = [:]
    /// The node whose output an audio recording takes (`nil`: the master output).
    private var recordedNode: NodeID?
    /// Whether the daemon has logged that the render thread left realtime priority.
    var reportedRealtimeDrop = false
    /// The device's underruns the daemon has logged, and when it last looked (`reportUnderruns`).
    var reportedUnderruns = 0
    var lastUnderrunCheck = HostTime.distantPast

    init(driver: AudioDriver, catalog: NodeCatalog) {
        self.driver = driver
        self.catalog = catalog
    }

    /// Hands over the nodes the control side made and prepared for the next install: a node
    /// that install starts with the same id and body takes its prepared instance instead of
    /// one made here; the others are dropped then.
    func offer(_ prepared: PreparedNodes) {
        offered = prepared
    }

    /// The format the program renders in.
    var renderFormat: RenderFormat { driver.renderFormat }

    /// Compiles `graph` — its render nodes wired as its audio routes say (`routes`, worked
    /// out on the control side; `nil`: here) — installs it, and starts the render thread on
    /// the first call. A new node is the one offered for it (`offer`), else made here.
    /// - Returns: warnings to log (realtime priority refused, a node no output hears).
    func install(_ graph: HubGraph, stopped: [GraphNode], routes: AudioRoutes? = nil) throws -> [String] {
        // A replaced node starts afresh: its new instance gets the new spec's values, not the old one's.
        for node in stopped {
            instances[node.id] = nil
            started.remove(node.id)
        }
        defer { offered = PreparedNodes() }
        let routes = routes ?? graph.audioRoutes
        var order: [NodeID] = []
        var nodes: [any Node] = []
        var ids: [UInt16] = []
        var newIDs: [NodeID: UInt16] = [:]
        for id in routes.nodes {
            let kept = instances[id]
            let body = graph.node(id)?.body
            guard let instance = kept ?? offered.node(id, body: body) ?? makeNode(body) else { continue }
            let renderID = kept.flatMap { _ in renderIDs[id] } ?? freeRenderID(taken: Set(ids))
            instances[id] = instance
            newIDs[id] = renderID
            order.append(id)
            nodes.append(instance)
            ids.append(renderID)
        }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        func port(_ source: AudioRoutes.Source) -> AudioWiring.Port? {
            guard let index = position[source.node] else { return nil }
            guard let name = source.output else { return AudioWiring.Port(index) }
            return nodes[index].sendOutputs.firstIndex(of: name).map { AudioWiring.Port(index, output: $0 + 1) }
        }
        var inputs = order.map { (routes.inputs[$0] ?? []).compactMap(port) }
        let previousFeeds = feeds
        feeds = [:]
        outputFeedIDs = [:]
        for output in routes.otherOutputs {
            let feed = previousFeeds[output.device]
                ?? (catalog.makeOutputFeed(device: output.device, format: driver.renderFormat),
                    freeRenderID(taken: Set(ids).union(previousFeeds.values.map(\.renderID))))
            feeds[output.device] = feed
            for id in output.outputs { outputFeedIDs[id] = feed.renderID }
            nodes.append(feed.feed.node)
            ids.append(feed.renderID)
            inputs.append(output.sources.compactMap(port))
        }
        stopFeeds(previousFeeds.filter { feeds[$0.key] == nil })
        let wiring = AudioWiring(inputs: inputs, toOutput: routes.toOutput.compactMap(port))
        instances = instances.filter { newIDs[$0.key] != nil }
        started = started.filter { newIDs[$0] != nil }
        engine.install(RenderProgram(nodes: nodes, ids: ids, wiring: wiring, format: driver.renderFormat))
        program = (nodes, ids, wiring)
        previousIDs = Set(renderIDs.values).union(previousFeeds.values.map(\.renderID))
        renderIDs = newIDs
        byGraphIndex = graph.nodes.map { ($0.id, newIDs[$0.id]) }
        rendered = RenderedNodes(instances, bypassed: routes.bypassed)
        if recordedNode != nil { record(recordedNode) }
        for node in graph.nodes where newIDs[node.id] != nil && !started.contains(node.id) {
            started.insert(node.id)
            for (name, value) in node.parameters { setParameter(node.id, name, to: value) }
        }
        var warnings = routes.unheard.map { id in
            "node '\(id)' is not heard: its audio reaches no output (fix: add a route such as '\(id) -> out')"
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
        driver.tap.source = id.map { (renderIDs[$0] ?? outputFeedIDs[$0]).map(AudioTap.Source.node) ?? .silence } ?? .master
    }

    /// The render node of unit `id` in the installed program, if it has one.
    func instance(of id: NodeID) -> (any Node)? { instances[id] }

    /// Whether node `id` is a render node of the running program, or an output node on
    /// another device (an audio recording can take its output).
    func isRendered(_ id: NodeID) -> Bool { renderIDs[id] != nil || outputFeedIDs[id] != nil }

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
        if driver.renderFormat != format {
            engine.install(RenderProgram(nodes: program.nodes, ids: program.ids, wiring: program.wiring,
                                         format: driver.renderFormat))
        }
        if case .denied(let warning) = try driver.start(engine: engine) { return warning }
        return nil
    }

    /// A new render node for a unit or an audio input, or `nil` (not a render node, or a
    /// type the catalog cannot make).
    private func makeNode(_ body: NodeBody?) -> (any Node)? {
        switch body {
        case .unit(let descriptor)?: catalog.makeNode(descriptor)
        case .input(let device)?: catalog.makeInput(device: device)
        default: nil
        }
    }

    /// Stops the writers of the sound cards the graph no longer plays to, on a worker: a
    /// writer in a device stall takes up to a second to end, which MIDI must not wait for.
    private func stopFeeds(_ gone: [String: (feed: AudioOutputFeed, renderID: UInt16)]) {
        guard !gone.isEmpty else { return }
        let feeds = gone.values.map(\.feed)
        DispatchQueue.global(qos: .utility).async { for feed in feeds { feed.stop() } }
    }

    /// The smallest render id not used by the running program, the previous one or `taken`.
    private func freeRenderID(taken: Set<UInt16>) -> UInt16 {
        let used = taken.union(renderIDs.values).union(previousIDs).union(feeds.values.map(\.renderID))
        return (0...UInt16.max).first { !used.contains($0) } ?? 0
    }

    /// Sends a parameter change to unit `id` through the live ring, taking effect at the frame
    /// of `time` (the monotonic clock: the arrival of the controller move that made it,
    /// so it lands with a note that arrived with it; staged until `publishLive`), by default now
    /// (pushed at once).
    /// - Returns: the value set (clamped), or `nil` when the node or parameter is unknown.
    @discardableResult
    func setParameter(_ id: NodeID, _ name: String, to value: Float, at time: HostTime? = nil) -> Float? {
        guard let renderID = renderIDs[id], let info = instances[id]?.parameters.first(where: { $0.name == name }) else { return nil }
        let clamped = info.clamp(value)
        send(.parameter(node: renderID, id: info.id, value: clamped), at: time)
        return clamped
    }

    /// Sends a resolved parameter change (`HubEffect.setResolvedParameter`): node `id` at
    /// `index` of the installed graph, `parameter` its type's, `value` clamped; at the frame
    /// of `time` like `setParameter`. No name is looked up; a node the installed program does
    /// not have at that index (audio opened later, another graph) goes by name instead.
    func setParameter(atIndex index: Int, of id: NodeID, _ parameter: ParameterInfo, to value: Float, at time: HostTime) {
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
    var renderedTime: HostTime? {
        driver.isRunning ? .zero + timeBase.duration(at: driver.framesRendered) : nil
    }

    /// From rendering a frame to hearing it: the device's buffer.
    var outputDelay: HostDuration { timeBase.duration(ofFrames: Int64(driver.settings.bufferFrames)) }

    /// One block: the render thread may already be rendering the block after
    /// `renderedTime`, so events are scheduled later than that.
    var blockLength: HostDuration { timeBase.duration(ofFrames: Int64(driver.blockFrames)) }

    /// Plays `message` on unit `id` at the exact frame of `time` (on `renderedTime`'s clock).
    func schedule(_ message: MIDIMessage, on id: NodeID, at time: HostTime) {
        guard let renderID = renderIDs[id] else { return }
        driver.sequenced.push(message, node: renderID, frame: timeBase.nearestFrame(after: time.sinceOrigin))
    }

    /// From `time` (on `renderedTime`'s clock) on, nodes see the song's timeline `host` (a
    /// stopped one hands the timeline back to live playing).
    func scheduleTimeline(_ host: HostSync, at time: HostTime) {
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
            for (_, output) in feeds { output.feed.stop() }
            feeds = [:]
        }
        try driver.stop()
    }
}
