import RenderCore
import Testing

/// Renders blocks and keeps the left channel of each, for sample-to-sample analysis.
private struct Recorder {
    let engine: RenderEngine
    let buffer = AudioBuffer(channels: 2, capacity: 64)
    var host = HostSync(sampleRate: 48_000, transport: .playing)
    var samples: [Float] = []

    mutating func render(blocks: Int) {
        for _ in 0..<blocks {
            engine.render(frames: 64, bus: buffer.bus, host: host)
            samples += (0..<64).map { buffer.left[$0] }
            host = host.advanced(by: 64)
        }
    }

    /// The largest |x[n] − x[n−1]| over `range`.
    func largestStep(in range: Range<Int>) -> Float {
        range.dropFirst().map { abs(samples[$0] - samples[$0 - 1]) }.max() ?? 0
    }
}

@Suite struct CrossfadeTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    /// Replaces an instrument that holds a note (a sine without envelope: only the fade can
    /// avoid a click) by another playing another pitch;
    /// returns the largest step at the swap divided by the largest steady-state step.
    private func clickRatio(crossfade: Crossfade) -> Float {
        let old = SineNode(frequency: 440), new = SineNode(frequency: 660)
        var recorder = Recorder(engine: RenderEngine(crossfade: crossfade))
        recorder.engine.install(RenderProgram(nodes: [old], ids: [1], format: format))
        recorder.engine.events.push(RenderEvent(frame: 0, kind: .noteOn, data1: 69, data2: 100, node: 1))
        recorder.render(blocks: 20)
        let steady = recorder.largestStep(in: 64..<recorder.samples.count)
        #expect(steady > 0.01, "the old instrument sounds before the swap")
        let swapAt = recorder.samples.count
        recorder.engine.install(RenderProgram(nodes: [new], ids: [2], format: format))
        recorder.engine.events.push(RenderEvent(frame: 0, kind: .noteOn, data1: 76, data2: 100, node: 2))
        recorder.render(blocks: 20)
        let afterSwap = recorder.largestStep(in: swapAt - 1..<recorder.samples.count)
        return afterSwap / steady
    }

    @Test func replacingAnInstrumentMidNoteDoesNotClick() {
        let hardSwap = clickRatio(crossfade: .off)
        #expect(hardSwap > 3, "the check must see the click a hard swap makes (ratio \(hardSwap))")
        for crossfade in [Crossfade(seconds: 0.015), Crossfade(seconds: 0.010, curve: .linear)] {
            let ratio = clickRatio(crossfade: crossfade)
            // 660 Hz steps are 1.5× the 440 Hz ones; the blend may add a little on top.
            #expect(ratio < 2, "\(crossfade): the largest step at the swap is \(ratio)× the steady one")
        }
    }

    @Test func removingAnEffectFadesItOut() {
        let sine = SineNode(frequency: 440, level: 0.5), effect = GainNode(gain: -1)
        var recorder = Recorder(engine: RenderEngine(crossfade: Crossfade(seconds: 0.010, curve: .linear)))
        recorder.engine.install(RenderProgram(nodes: [sine, effect], format: format))
        recorder.engine.events.push(.noteOn(channel: 0, note: 69, velocity: 100))
        recorder.render(blocks: 10)
        let steady = recorder.largestStep(in: 64..<recorder.samples.count)
        let swapAt = recorder.samples.count
        recorder.engine.install(RenderProgram(nodes: [sine], format: format))
        recorder.render(blocks: 20)
        #expect(recorder.largestStep(in: swapAt - 1..<recorder.samples.count) < 1.5 * steady,
                "a polarity flip blended over 10 ms has no step larger than the signal's own")
        // Halfway through a linear wet/dry blend of −x and x the output is silent.
        let middle = swapAt + 240
        #expect(abs(recorder.samples[middle]) < 0.02)
        // After the fade the effect is gone: the output is the sine itself, not its inverse.
        let lateInput = recorder.samples[(swapAt + 640)...]
        #expect(lateInput.contains { $0 > 0.45 } && !lateInput.contains { $0 > 0.5001 })
        #expect(effect.processCount == 10 + 8, "the removed effect runs during the 480-frame fade only")
    }

    @Test func aNodeKeptAcrossTheSwapIsRenderedOncePerBlock() {
        let kept = SineNode(), added = GainNode(gain: 0.5)
        var recorder = Recorder(engine: RenderEngine(crossfade: Crossfade(seconds: 0.02)))
        recorder.engine.install(RenderProgram(nodes: [kept], ids: [4], format: format))
        recorder.render(blocks: 2)
        recorder.engine.install(RenderProgram(nodes: [kept, added], ids: [4, 5], format: format))
        recorder.render(blocks: 30)
        #expect(kept.processCount == 32)
        #expect(added.processCount == 30)
    }

    @Test func theOldProgramIsRetiredAfterTheCrossfade() {
        weak var weakOld: RenderProgram?
        let engine = RenderEngine(crossfade: Crossfade(seconds: 0.005))  // 240 frames: 4 blocks
        var recorder = Recorder(engine: engine)
        do {
            let old = RenderProgram(nodes: [SineNode()], format: format)
            weakOld = old
            engine.install(old)
            recorder.render(blocks: 1)
            engine.install(RenderProgram(nodes: [SineNode()], format: format))
        }
        recorder.render(blocks: 3)
        #expect(engine.collectRetired() == 0, "still fading out")
        #expect(weakOld != nil)
        recorder.render(blocks: 1)
        #expect(engine.collectRetired() == 1)
        #expect(weakOld == nil, "released on the control side once the fade is over")
    }

    @Test func eventsQueuedBeforeASwapReachTheSameNodeByID() {
        let first = RecordingNode(level: 0), second = RecordingNode(level: 0)
        let engine = RenderEngine(crossfade: .off)
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        engine.install(RenderProgram(nodes: [first, second], ids: [10, 11], format: format))
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        // Queued for node 11 (index 1) while the old program runs, rendered by the new one,
        // where node 11 is at index 0 and index 1 is another node.
        engine.events.push(RenderEvent(frame: 0, kind: .noteOn, data1: 60, node: 11))
        engine.install(RenderProgram(nodes: [second, RecordingNode(level: 0)], ids: [11, 12], format: format))
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        #expect(second.received.map(\.data1) == [60])
        #expect(first.received.isEmpty)
    }

    @Test func aNoteOffForARemovedInstrumentReachesItDuringTheFade() {
        let removed = RecordingNode(level: 0), kept = RecordingNode(level: 0)
        let engine = RenderEngine(crossfade: Crossfade(seconds: 0.01))
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        engine.install(RenderProgram(nodes: [removed, kept], ids: [1, 2], format: format))
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        engine.events.push(RenderEvent(frame: 3, kind: .noteOff, data1: 60, node: 1))
        engine.install(RenderProgram(nodes: [kept], ids: [2], format: format))
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        #expect(removed.received.map(\.data1) == [60])
    }
}
