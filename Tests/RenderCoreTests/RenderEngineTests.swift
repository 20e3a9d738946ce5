import RenderCore
import Testing

/// Writes a constant and records the events it was given.
final class RecordingNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .generator, subtype: "rec ", manufacturer: "test", name: "recorder", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    private(set) var prepareCount = 0
    let level: Float
    var received: [RenderEvent] = []
    var segments: [Range<Int>] = []
    let onDeinit: () -> Void

    init(level: Float, onDeinit: @escaping () -> Void = {}) {
        self.level = level
        self.onDeinit = onDeinit
    }

    deinit { onDeinit() }

    func prepare(format: RenderFormat) {
        preparedFormat = format
        prepareCount += 1
    }

    func process(_ context: ProcessContext) {
        context.forEachSegment(apply: { received.append($0) }, render: { start, count in
            segments.append(start..<start + count)
            for i in start..<start + count { context.bus.left[i] += level }
        })
    }
}

@Suite struct RenderEngineTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    @Test func eventsReachTheirNodeSortedAndClampedIntoTheBlock() {
        let first = RecordingNode(level: 1), second = RecordingNode(level: 0)
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [first, second], format: format))
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        engine.events.push(.noteOn(channel: 0, note: 60, velocity: 1, frame: 500))
        engine.events.push(.parameter(node: 1, id: 3, value: 0.5, frame: 5))
        engine.events.push(.noteOn(channel: 0, note: 61, velocity: 1, frame: 2))
        let sequenced = [RenderEvent.noteOn(channel: 0, note: 62, velocity: 1, frame: 2),
                         RenderEvent.noteOn(channel: 0, note: 63, velocity: 1, frame: 40)]
        sequenced.withUnsafeBufferPointer { engine.render(frames: 64, bus: buffer.bus, host: HostSync(), sequenced: $0) }
        #expect(first.received.map(\.data1) == [62, 61, 63, 60], "by frame; sequenced first on ties")
        #expect(first.received.map(\.frame) == [2, 2, 40, 63], "a late live event is clamped to the last frame")
        #expect(first.segments == [0..<2, 2..<40, 40..<63, 63..<64], "blocks split exactly at event frames")
        #expect(second.received.map(\.parameter) == [3])
        #expect((0..<64).allSatisfy { buffer.left[$0] == 1 })
    }

    @Test func swappedProgramsAreRetiredToTheControlSideNotFreedOnRender() {
        var freed: [Float] = []
        let engine = RenderEngine(crossfade: .off)
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        #expect(!engine.render(frames: 64, bus: buffer.bus, host: HostSync()), "silent without a program")
        do {
            engine.install(RenderProgram(nodes: [RecordingNode(level: 1) { freed.append(1) }], format: format))
            engine.render(frames: 64, bus: buffer.bus, host: HostSync())
            #expect(buffer.left[0] == 1)
            engine.install(RenderProgram(nodes: [RecordingNode(level: 2) { freed.append(2) }], format: format))
        }
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        #expect(buffer.left[0] == 2, "the new program runs from the next block")
        #expect(freed.isEmpty, "the old program is still alive: the render thread only handed it back")
        #expect(engine.collectRetired() == 1)
        #expect(freed == [1], "released on the control side")
    }

    @Test func aProgramPublishedTwiceBeforeABlockReleasesTheSkippedOne() {
        var freed: [Float] = []
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [RecordingNode(level: 1) { freed.append(1) }], format: format))
        engine.install(RenderProgram(nodes: [RecordingNode(level: 2) { freed.append(2) }], format: format))
        #expect(freed == [1])
    }

    @Test func programsPrepareOnlyNodesNotYetPreparedForTheirFormat() {
        let node = RecordingNode(level: 1)
        _ = RenderProgram(nodes: [node], format: format)
        _ = RenderProgram(nodes: [node], format: format)
        #expect(node.prepareCount == 1)
        _ = RenderProgram(nodes: [node], format: RenderFormat(sampleRate: 96_000, maxFrames: 64))
        #expect(node.prepareCount == 2)
    }

    @Test func aFullEventRingDropsAndCounts() {
        let engine = RenderEngine(ringCapacity: 16)
        for i in 0..<20 { engine.events.push(.noteOn(channel: 0, note: UInt8(i), velocity: 1)) }
        #expect(engine.droppedEvents == 4)
    }
}
