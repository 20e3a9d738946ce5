/// A compiled render graph: its nodes, and the `AudioWiring` that says which node takes
/// audio from which and what reaches the output (by default one chain: the sources
/// summed, then the effects in series). Each node renders into a buffer of its own.
/// Built and prepared on the control side, immutable afterwards, run by `RenderEngine` on
/// the render thread.
///
/// Events address nodes by **id**, not by position: each node has a `UInt16` id (by
/// default its index), and an event's `node` field names that id. A caller that keeps a
/// node across recompiled programs gives it the same id in each, so events already queued
/// when a program is swapped in still reach the node they were meant for.
///
/// - Thread: render for `process`; `init` on control.
public final class RenderProgram: @unchecked Sendable {
    public let nodes: [any Node]
    /// The id of each node (parallel to `nodes`), as events address it.
    public let ids: [UInt16]
    public let format: RenderFormat
    public let maxEventsPerBlock: Int
    /// Which node takes audio from which, and what reaches the output.
    public let wiring: AudioWiring
    /// Whether each node processes its input in place (an effect, a music effect) rather
    /// than rendering into a cleared buffer.
    let takesInput: [Bool]
    /// The buffer each node renders into (stereo, `format.maxFrames` frames).
    let buffers: [AudioBuffer]
    /// Each node's send outputs' buffers (for nodes with sends), and the buses a node is
    /// handed: `sendCounts[i]` buses from `sendStarts[i]` of `sendBuses` (0 when nothing
    /// takes node i's sends).
    private let sendBuffers: [[AudioBuffer]]
    private let sendBuses: UnsafeMutablePointer<AudioBus>
    private let sendStarts: [Int]
    private let handedSends: [Int]
    /// The plan `process` runs.
    private var plan: RenderPlan
    /// Events routed to each node during one block, one preallocated list per node.
    private let nodeEvents: UnsafeMutablePointer<RenderEvent>
    private let nodeEventCounts: UnsafeMutablePointer<Int>
    /// Node index by id (-1: no such node), `slotCount` entries.
    private let slots: UnsafeMutablePointer<Int32>
    private let slotCount: Int

    /// Compiles `nodes` for `format`, preparing nodes that are not yet prepared for it.
    /// - Parameters:
    ///   - ids: the id events use for each node (unique); default: the indices.
    ///   - wiring: the audio graph, nodes listed inputs first; default: one chain
    ///     (`AudioWiring.chain`: the sources summed, then the effects in the listed order).
    /// - Thread: control (allocates; must not prepare a node that a running program uses
    ///   with another format).
    public init(nodes: [any Node], ids: [UInt16]? = nil, wiring: AudioWiring? = nil, format: RenderFormat,
                maxEventsPerBlock: Int = 4096) {
        let ids = ids ?? nodes.indices.map { UInt16(truncatingIfNeeded: $0) }
        precondition(ids.count == nodes.count && Set(ids).count == ids.count, "RenderProgram: one unique id per node")
        let takesInput = nodes.map { $0.descriptor.kind == .effect || $0.descriptor.kind == .musicEffect }
        let wiring = wiring ?? .chain(takesInput: takesInput)
        precondition(wiring.isValid(sendCounts: nodes.map(\.sendOutputs.count)),
                     "RenderProgram: wiring must name outputs of its nodes, every input before its node")
        self.nodes = nodes
        self.ids = ids
        self.format = format
        self.maxEventsPerBlock = maxEventsPerBlock
        self.wiring = wiring
        self.takesInput = takesInput
        buffers = nodes.map { _ in AudioBuffer(channels: 2, capacity: format.maxFrames) }
        let sendBuffers = nodes.map { node in node.sendOutputs.map { _ in AudioBuffer(channels: 2, capacity: format.maxFrames) } }
        self.sendBuffers = sendBuffers
        let wired = wiring.wiredSends()
        handedSends = sendBuffers.indices.map { wired.contains($0) ? sendBuffers[$0].count : 0 }
        sendStarts = sendBuffers.indices.map { index in sendBuffers[..<index].reduce(0) { $0 + $1.count } }
        let allSends = sendBuffers.joined().map(\.bus)
        sendBuses = .allocate(capacity: max(1, allSends.count))
        sendBuses.initialize(from: allSends, count: allSends.count)
        for node in nodes where node.preparedFormat != format {
            node.prepare(format: format)
        }
        nodeEvents = .allocate(capacity: max(1, nodes.count) * maxEventsPerBlock)
        nodeEventCounts = .allocate(capacity: max(1, nodes.count))
        nodeEventCounts.initialize(repeating: 0, count: max(1, nodes.count))
        slotCount = Int(ids.max() ?? 0) + 1
        slots = .allocate(capacity: slotCount)
        slots.initialize(repeating: -1, count: slotCount)
        for (index, id) in ids.enumerated() { slots[Int(id)] = Int32(index) }
        plan = RenderPlan(steps: [], inputs: [], outputRange: 0..<0)
        plan = plainPlan()
    }

    /// The buffer of output `port`.
    /// - Thread: control.
    func bus(_ port: AudioWiring.Port) -> AudioBus {
        port.output == 0 ? buffers[port.node].bus : sendBuffers[port.node][port.output - 1].bus
    }

    /// The send buses node `index` is handed (empty when nothing takes its sends).
    /// - Thread: control.
    func sends(of index: Int) -> UnsafeBufferPointer<AudioBus> {
        UnsafeBufferPointer(start: sendBuses + sendStarts[index], count: handedSends[index])
    }

    /// Every node in order on the sum of its inputs, every weight 1.
    private func plainPlan() -> RenderPlan {
        var inputs: [RenderPlan.Input] = []
        func add(_ sources: [AudioWiring.Port]) -> Range<Int> {
            let start = inputs.count
            inputs += sources.map { RenderPlan.Input(buffer: bus($0), weight: .one) }
            return start..<inputs.count
        }
        let steps = buffers.indices.map { index in
            RenderPlan.Step(side: .new, index: index, buffer: buffers[index].bus, sends: sends(of: index),
                            takesInput: takesInput[index], inputRange: add(wiring.inputs[index]))
        }
        let output = add(wiring.toOutput)
        return RenderPlan(steps: steps, inputs: inputs, outputRange: output)
    }

    deinit {
        sendBuses.deallocate()
        nodeEvents.deallocate()
        nodeEventCounts.deallocate()
        slots.deallocate()
    }

    /// The index of `node` in this program, if it is one of its nodes (the same instance).
    /// - Thread: control.
    public func index(of node: any Node) -> Int? {
        nodes.firstIndex { $0 === node }
    }

    /// Renders one block into `bus`: each node in order (a source into its cleared buffer,
    /// an effect on the sum of its inputs), then the output's sum. Events whose `node`
    /// names no node of this program are ignored.
    /// - Returns: the number of events dropped because a node's list was full.
    /// - Thread: render.
    public func process(frames: Int, events: UnsafeBufferPointer<RenderEvent>, bus: AudioBus, host: HostSync) -> Int {
        let dropped = dispatch(events)
        plan.run(frames: frames, new: self, old: nil, bus: bus, host: host, fade: .none, position: 0)
        return dropped
    }

    /// Sorts the block's events into the per-node lists by node id.
    /// - Returns: events dropped because a node's list was full.
    /// - Thread: render.
    func dispatch(_ events: UnsafeBufferPointer<RenderEvent>) -> Int {
        var dropped = 0
        nodeEventCounts.update(repeating: 0, count: nodes.count)
        for event in events where Int(event.node) < slotCount {
            let index = Int(slots[Int(event.node)])
            guard index >= 0 else { continue }
            let n = nodeEventCounts[index]
            if n == maxEventsPerBlock { dropped += 1; continue }
            nodeEvents[index * maxEventsPerBlock + n] = event
            nodeEventCounts[index] = n + 1
        }
        return dropped
    }

    /// What node `id` rendered in the last block (its main output, after it processed), or
    /// `nil` when no node of this program has that id.
    /// - Thread: render.
    func output(ofNode id: UInt16) -> AudioBus? {
        guard Int(id) < slotCount, case let index = Int(slots[Int(id)]), index >= 0 else { return nil }
        return buffers[index].bus
    }

    /// The events `dispatch` gave node `index` in this block.
    /// - Thread: render.
    func events(for index: Int) -> UnsafeBufferPointer<RenderEvent> {
        UnsafeBufferPointer(start: nodeEvents + index * maxEventsPerBlock, count: nodeEventCounts[index])
    }
}
