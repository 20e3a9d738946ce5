/// A compiled render graph: one instrument (or generator) followed by effects in series,
/// ending at the output. Built and prepared on the control side, immutable afterwards, run
/// by `RenderEngine` on the render thread.
///
/// - Thread: `init` on control; `process` on render.
public final class RenderProgram: @unchecked Sendable {
    public let nodes: [any Node]
    public let format: RenderFormat
    /// Events routed to each node during one block, one preallocated list per node.
    private let nodeEvents: UnsafeMutablePointer<RenderEvent>
    private let nodeEventCounts: UnsafeMutablePointer<Int>
    public let maxEventsPerBlock: Int

    /// Compiles `nodes` (first the source, then effects in order) for `format`, preparing
    /// nodes that are not yet prepared for it.
    /// - Thread: control (allocates; must not prepare a node that a running program uses
    ///   with another format).
    public init(nodes: [any Node], format: RenderFormat, maxEventsPerBlock: Int = 4096) {
        self.nodes = nodes
        self.format = format
        self.maxEventsPerBlock = maxEventsPerBlock
        for node in nodes where node.preparedFormat != format {
            node.prepare(format: format)
        }
        nodeEvents = .allocate(capacity: max(1, nodes.count) * maxEventsPerBlock)
        nodeEventCounts = .allocate(capacity: max(1, nodes.count))
        nodeEventCounts.initialize(repeating: 0, count: max(1, nodes.count))
    }

    deinit {
        nodeEvents.deallocate()
        nodeEventCounts.deallocate()
    }

    /// Renders one block into `bus`: clears it, lets the source add into it, then runs each
    /// effect in place. Events whose `node` is out of range are ignored.
    /// - Returns: the number of events dropped because a node's list was full.
    /// - Thread: render.
    public func process(frames: Int, events: UnsafeBufferPointer<RenderEvent>, bus: AudioBus, host: HostSync) -> Int {
        let count = nodes.count
        var dropped = 0
        nodeEventCounts.update(repeating: 0, count: count)
        for event in events where Int(event.node) < count {
            let node = Int(event.node)
            let n = nodeEventCounts[node]
            if n == maxEventsPerBlock { dropped += 1; continue }
            nodeEvents[node * maxEventsPerBlock + n] = event
            nodeEventCounts[node] = n + 1
        }
        bus.clear(frames: frames)
        for index in 0..<count {
            let list = UnsafeBufferPointer(start: nodeEvents + index * maxEventsPerBlock, count: nodeEventCounts[index])
            nodes[index].process(ProcessContext(frames: frames, events: list, bus: bus, host: host))
        }
        return dropped
    }
}
