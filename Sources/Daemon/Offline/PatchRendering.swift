import Hub
import MIDICore
import RenderCore
import Sequencer

/// A patch's graph set up to play a song offline (`midihub render --patch`), as the daemon
/// plays a song with the patch loaded: the render program the audio rack installs for the
/// graph (`RackLayout.compile`: the same nodes, wiring, presets and parameter values), and the
/// song's events entering at the source nodes that take `midihub:sequence`, routed through
/// the routes and MIDI processors (`MIDIRouter`) to the render nodes, each at its exact frame.
/// The render's output is what the first output device hears. Other apps' ports, audio
/// inputs and other sound cards cannot play offline: they are left out, and `notes` says so.
///
/// - Thread: control (made before rendering; the nodes are then the renderer's).
public struct PatchRendering {
    /// The render nodes, in program order, the id events address each by, and their wiring.
    public let nodes: [any Node]
    public let ids: [UInt16]
    public let wiring: AudioWiring
    /// What the render nodes get: the graph's parameter values at frame 0, then the song as
    /// the graph routes it.
    public let schedule: RenderSchedule
    /// Lines to show: what was left out, nodes that could not be made, nodes no output hears.
    public let notes: [String]

    /// Lays out `patch`'s graph for `format` (nodes made with `catalog`, plugins found through
    /// `registry`) and routes `song` through it.
    /// - Throws: `PatchRenderError` when no source node takes the song, or a processor node
    ///   names a parameter its processor does not have.
    /// - Thread: control.
    public init(patch: Patch, song: MIDIFile, registry: NodeRegistry, catalog: NodeCatalog,
                format: RenderFormat) throws(PatchRenderError) {
        let graph = patch.graph
        var router: MIDIRouter
        do {
            router = try MIDIRouter(graph: graph, plugins: registry.plugins)
        } catch {
            throw PatchRenderError(problem: error.description, fix: "check the processor node's parameters (docs/patch-format.md)")
        }
        router.clock = TempoClock(beatsPerMinute: patch.tempo)
        let sender = router.sender(for: HubCore.defaultSequencePort)
        guard sender.feedsGraph else {
            throw PatchRenderError(problem: "no source node takes midihub:sequence, so the song would play nowhere",
                                   fix: "add a source node such as `song: { source: \"midihub:sequence\" }` (or `\"*\"`) "
                                       + "and a route from it (docs/transport.md)")
        }
        var routes = graph.audioRoutes
        // Audio inputs and other apps' sound have nothing to play offline.
        let inputs = Set(graph.nodes.filter {
            switch $0.body { case .input, .external: true; default: false }
        }.map(\.id))
        routes.nodes.removeAll { inputs.contains($0) }
        routes.otherOutputs = []
        let compiled = RackLayout().compile(graph, stopped: [], routes: routes, offered: PreparedNodes(), catalog: catalog,
                                            format: format)
        let layout = compiled.layout
        nodes = layout.program.nodes
        ids = layout.program.ids
        wiring = layout.program.wiring

        let laidOut = RenderSchedule.messages(of: song, sampleRate: format.sampleRate)
        let timeline = RenderSchedule(entries: [], sampleRate: format.sampleRate, endFrame: laidOut.endFrame,
                                      tempoMap: TempoMap(file: song))
        var sink = SequenceSink(renderIDs: graph.nodes.map { layout.renderIDs[$0.id] },
                                timeBase: TimeBase(sampleRate: Int(format.sampleRate.rounded())))
        Self.route(laidOut, timeline: timeline, from: sender, through: &router, into: &sink)
        let starting = graph.nodes.flatMap { node in
            node.parameters.sorted { $0.key < $1.key }.compactMap { name, value -> RenderSchedule.Entry? in
                guard let (renderID, info) = layout.parameter(name, of: node.id) else { return nil }
                return RenderSchedule.Entry(frame: .zero, event: .parameter(node: renderID, id: info.id, value: info.clamp(value)))
            }
        }
        let routed = sink.entries.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(\.element)
        schedule = RenderSchedule(entries: starting + routed, sampleRate: format.sampleRate, endFrame: laidOut.endFrame,
                                  tempoMap: timeline.tempoMap)
        notes = Self.leftOut(graph) + routes.nodes.filter { layout.renderIDs[$0] == nil }.map { id in
            "node '\(id)' could not be made here; it stays silent"
        } + compiled.unheardWarnings
    }

    /// Routes `laidOut`'s messages, each at the moment of its frame, from `sender` through
    /// `router` into `sink`; generating processors (the arpeggiator) follow the song's beats
    /// (`timeline`: from its start and from each tempo change) and play up to the file's end.
    private static func route(_ laidOut: (messages: [(frame: FramePosition, message: MIDIMessage)], endFrame: FramePosition),
                              timeline: RenderSchedule, from sender: MIDIRouter.Sender, through router: inout MIDIRouter,
                              into sink: inout SequenceSink) {
        let timeBase = sink.timeBase
        let changes = timeline.tempoMap.tempoChanges.map(\.tick)
        var beats = (changes.first == .zero ? changes : [.zero] + changes).map { tick in
            timeBase.nearestFrame(after: timeline.tempoMap.duration(at: tick))
        }[...]
        func advance(to time: HostTime) {
            while let frame = beats.first, sink.time(at: frame) <= time {
                beats.removeFirst()
                let start = sink.time(at: frame)
                router.generate(until: start, into: &sink)
                router.followSong(TempoClock(following: timeline.hostSync(atFrame: frame), at: start), at: start)
            }
            router.generate(until: time, into: &sink)
        }
        for (frame, message) in laidOut.messages {
            let time = sink.time(at: frame)
            advance(to: time)
            router.route(message, from: sender, time: time, into: &sink)
        }
        advance(to: sink.time(at: laidOut.endFrame))
    }

    /// One line naming the nodes that cannot play offline, if any: other apps' ports, audio
    /// inputs, output nodes of another device than the first output's.
    private static func leftOut(_ graph: HubGraph) -> [String] {
        let devices = graph.nodes.compactMap { if case .output(let device) = $0.body { device } else { nil } }
        let left = graph.nodes.compactMap { node -> String? in
            switch node.body {
            case .external(let external): "'\(node.id)' (another app's port \(external.port))"
            case .input(let device): "'\(node.id)' (the audio input \(device))"
            case .output(let device) where device != devices.first: "'\(node.id)' (the sound card \(device))"
            default: nil
            }
        }
        guard !left.isEmpty else { return [] }
        return ["left out, as they cannot play offline: " + left.joined(separator: ", ")
                + "; the file holds what '\(devices.first ?? "default")' would play"]
    }
}
