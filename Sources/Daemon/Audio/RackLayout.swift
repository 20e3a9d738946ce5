import AudioHost
import Foundation
import Hub
import RenderCore

/// What the audio rack has installed, as a value: the render node of each unit of the graph
/// and its render id, the ids of the program before (not reused yet: its events may still be
/// queued), the other sound cards the graph plays to. The owner publishes it with the view
/// (`HubView.rack`); the control side compiles the next program against it (`compile`) with
/// the graph change it prepares, and the owner commits that program when the rack is still
/// at the same `generation` — else it compiles one itself.
///
/// - Thread: any (a value; the nodes it holds are the render thread's, read here for their
///   descriptors only).
struct RackLayout: @unchecked Sendable {
    /// A sound card beside the main one: its writer and the render id of its node.
    typealias Feed = (feed: any SideOutput, renderID: UInt16)

    /// Counts the programs committed (and format changes).
    var generation = 0
    /// The nodes of the installed program, in program order, their render ids and wiring.
    var program: (nodes: [any Node], ids: [UInt16], wiring: AudioWiring) = ([], [], AudioWiring(inputs: [], toOutput: []))
    /// The render node of each unit of the installed graph.
    var instances: [NodeID: any Node] = [:]
    /// Render id (`RenderEvent.node`) of each unit node of the running program.
    var renderIDs: [NodeID: UInt16] = [:]
    /// Ids of the program before the running one: not reused yet.
    var previousIDs: Set<UInt16> = []
    /// The other sound cards the graph plays to, by device; kept across installs (a rewiring
    /// does not reopen them).
    var feeds: [String: Feed] = [:]
    /// The render id of the feed each output node on another device plays through.
    var outputFeedIDs: [NodeID: UInt16] = [:]
    /// Each node of the installed graph, by its index there, with its render id when it is
    /// rendered: how a resolved parameter finds its node.
    var byGraphIndex: [(id: NodeID, renderID: UInt16?)] = []
    /// The installed program's unit nodes as lists show them (parameters, outputs).
    var rendered = RenderedNodes()
    /// Whether the hub plays into JACK: an `input: default` is then JACK's physical capture ports.
    var playsInJack = false

    /// Compiles `graph` — its render nodes wired as its audio `routes` say — into the next
    /// program for `format`: nodes the graph keeps keep their instance and render id, a new
    /// one is the node `offered` for it, else made with `catalog`; a new node gets an id that
    /// neither the running nor the previous program uses. A device the graph newly plays to is
    /// opened here (`CompiledRack.openedFeeds`).
    /// - Thread: control (a graph change's preparation), or owner (the rebase).
    func compile(_ graph: HubGraph, stopped: [GraphNode], routes: AudioRoutes, offered: PreparedNodes,
                 catalog: NodeCatalog, format: RenderFormat) -> CompiledRack {
        var next = self
        next.generation += 1
        // A replaced node starts afresh: its new instance gets the new spec's values, not the old one's.
        for node in stopped { next.instances[node.id] = nil }
        var order: [NodeID] = []
        var nodes: [any Node] = []
        var ids: [UInt16] = []
        var newIDs: [NodeID: UInt16] = [:]
        for id in routes.nodes {
            let kept = next.instances[id]
            let body = graph.node(id)?.body
            guard let instance = kept ?? offered.node(id, body: body) ?? makeNode(id, body, catalog: catalog) else { continue }
            let renderID = kept.flatMap { _ in renderIDs[id] } ?? freeRenderID(taken: Set(ids))
            next.instances[id] = instance
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
        var opened: [Feed] = []
        next.feeds = [:]
        next.outputFeedIDs = [:]
        for output in routes.otherOutputs {
            let feed = feeds[output.device] ?? {
                let made = (catalog.makeOutputFeed(device: output.device, name: output.outputs.first ?? output.device,
                                                   inJack: playsInJack, format: format),
                            freeRenderID(taken: Set(ids).union(feeds.values.map(\.renderID))))
                opened.append(made)
                return made
            }()
            next.feeds[output.device] = feed
            for id in output.outputs { next.outputFeedIDs[id] = feed.renderID }
            nodes.append(feed.feed.renderNode)
            ids.append(feed.renderID)
            inputs.append(output.sources.compactMap(port))
        }
        let wiring = AudioWiring(inputs: inputs, toOutput: routes.toOutput.compactMap(port))
        next.instances = next.instances.filter { newIDs[$0.key] != nil }
        let program = RenderProgram(nodes: nodes, ids: ids, wiring: wiring, format: format)
        next.program = (nodes, ids, wiring)
        next.previousIDs = Set(renderIDs.values).union(feeds.values.map(\.renderID))
        next.renderIDs = newIDs
        next.byGraphIndex = graph.nodes.map { ($0.id, newIDs[$0.id]) }
        next.rendered = RenderedNodes(next.instances)
        return CompiledRack(graph: graph, base: generation, layout: next, program: program, unheard: routes.unheard,
                            retiredFeeds: feeds.filter { next.feeds[$0.key] == nil }.map(\.value), openedFeeds: opened)
    }

    /// Unit `id`'s render id and its parameter `name`, or `nil` when the installed program
    /// does not render it or it has no such parameter.
    /// - Thread: any.
    func parameter(_ name: String, of id: NodeID) -> (renderID: UInt16, info: ParameterInfo)? {
        guard let renderID = renderIDs[id], let info = instances[id]?.parameters.first(where: { $0.name == name }) else { return nil }
        return (renderID, info)
    }

    /// A new render node for a unit, an audio input or an external instrument whose sound
    /// comes back, or `nil` (not a render node, or a type the catalog cannot make). An input
    /// naming JACK ports (`jack:…`), or `default` while the hub plays into JACK, reads JACK
    /// ports; another input, its ALSA capture device.
    private func makeNode(_ id: NodeID, _ body: NodeBody?, catalog: NodeCatalog) -> (any Node)? {
        switch body {
        case .unit(let descriptor)?: catalog.makeNode(descriptor)
        case .input(let device)? where device.hasPrefix("jack:"):
            (try? PortSelector(parsing: device)).map { catalog.makeJackInput(named: id, source: device, selector: $0) }
        case .input(let device)? where device == "default" && playsInJack:
            catalog.makeJackInput(named: id, source: device, selector: nil)
        case .input(let device)?: catalog.makeInput(device: device)
        case .external(let external)? where external.playsIntoGraph:
            external.audio.flatMap { audio in
                (try? PortSelector(parsing: audio)).map { catalog.makeJackInput(named: id, source: audio, selector: $0) }
            }
        default: nil
        }
    }

    /// The smallest render id not used by the running program, the previous one or `taken`.
    private func freeRenderID(taken: Set<UInt16>) -> UInt16 {
        let used = taken.union(renderIDs.values).union(previousIDs).union(feeds.values.map(\.renderID))
        return (0...UInt16.max).first { !used.contains($0) } ?? 0
    }
}

/// A render program compiled for `graph` against the rack's layout of generation `base`,
/// and the layout once it is installed.
/// - Thread: any (made on the control side or the owner, committed or dropped on the owner).
struct CompiledRack: @unchecked Sendable {
    let graph: HubGraph
    let base: Int
    let layout: RackLayout
    let program: RenderProgram
    /// Nodes that make sound no output hears.
    let unheard: [NodeID]
    /// The sound cards the running program plays to and this one does not: stopped when it
    /// is installed.
    let retiredFeeds: [RackLayout.Feed]
    /// The sound cards opened for it: stopped when it is dropped.
    let openedFeeds: [RackLayout.Feed]

    /// One line for each node no output hears, with the route that would make it heard.
    var unheardWarnings: [String] {
        unheard.map { id in "node '\(id)' is not heard: its audio reaches no output (fix: add a route such as '\(id) -> out')" }
    }

    /// Stops `feeds`' writers on a worker: a writer in a device stall takes up to a second to
    /// end, which MIDI must not wait for.
    static func stop(_ feeds: [RackLayout.Feed]) {
        guard !feeds.isEmpty else { return }
        let writers = feeds.map(\.feed)
        DispatchQueue.global(qos: .utility).async { for writer in writers { writer.stop() } }
    }
}
