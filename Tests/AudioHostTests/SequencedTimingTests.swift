@testable import AudioHost
import MIDICore
import RenderCore
import Testing

/// The transport's events reach the render thread at their exact frame, whatever the period
/// and however far ahead they were pushed; a cut drops what has not played.
@Suite("Sequenced event timing")
struct SequencedTimingTests {
    /// Runs blocks of `blockFrames` from frame 0 and returns every delivered event's absolute frame.
    private func deliver(_ input: SequencedInput, blocks: Range<Int>, blockFrames: Int,
                         timing: inout SequencedTiming) -> [(frame: Int64, event: RenderEvent)] {
        let buffer = UnsafeMutablePointer<RenderEvent>.allocate(capacity: 1024)
        defer { buffer.deallocate() }
        var delivered: [(Int64, RenderEvent)] = []
        for block in blocks {
            var count = 0
            let start = FramePosition(Int64(block * blockFrames))
            #expect(timing.collect(from: input, start: start, frames: blockFrames, into: buffer, count: &count, capacity: 1024) == 0)
            let frames = (0..<count).map { buffer[$0].frame }
            #expect(frames == frames.sorted())
            delivered += (0..<count).map { ((start + Int64(buffer[$0].frame)).index, buffer[$0]) }
        }
        return delivered
    }

    @Test(arguments: [64, 256, 1024])
    func everyEventLandsOnItsFrame(blockFrames: Int) {
        let input = SequencedInput(capacity: 1024)
        var generator = SystemRandomNumberGenerator()
        let frames = (0..<300).map { _ in Int64.random(in: 0..<Int64(40 * blockFrames), using: &generator) }.sorted()
        for (index, frame) in frames.enumerated() {
            input.push(.noteOn(channel: 0, note: UInt8(index % 128), velocity: 100), node: 3, frame: FramePosition(frame))
        }
        var timing = SequencedTiming()
        let delivered = deliver(input, blocks: 0..<41, blockFrames: blockFrames, timing: &timing)
        #expect(delivered.map(\.frame) == frames)
        #expect(delivered.allSatisfy { $0.event.node == 3 })
    }

    @Test func anEventPushedLateLandsAtTheBlocksStart() {
        let input = SequencedInput(capacity: 16)
        var timing = SequencedTiming()
        _ = deliver(input, blocks: 0..<2, blockFrames: 64, timing: &timing)
        input.push(.noteOn(channel: 0, note: 60, velocity: 100), node: 0, frame: 10)
        let delivered = deliver(input, blocks: 2..<3, blockFrames: 64, timing: &timing)
        #expect(delivered.map(\.frame) == [128])
    }

    @Test func aCutDropsWhatWasPushedBeforeItAndKeepsWhatCameAfter() {
        let input = SequencedInput(capacity: 64)
        var timing = SequencedTiming()
        input.push(.noteOn(channel: 0, note: 60, velocity: 100), node: 0, frame: 10)
        input.push(.noteOn(channel: 0, note: 62, velocity: 100), node: 0, frame: 200)
        _ = deliver(input, blocks: 0..<1, blockFrames: 64, timing: &timing)  // plays note 60, holds 62
        input.cut()
        input.push(.noteOff(channel: 0, note: 60, velocity: 0), node: 0, frame: 100)
        let delivered = deliver(input, blocks: 1..<5, blockFrames: 64, timing: &timing)
        #expect(delivered.map(\.frame) == [100])
        #expect(delivered.first?.event.kind == .noteOff)
    }
}

extension SequencedTimingTests {
    @Test func timelinePointsTakeEffectFromTheirFrameMovedOnToTheBlock() {
        let input = SequencedInput(capacity: 16)
        var timing = SequencedTiming()
        let song = HostSync(tempo: 90, beat: 8, bar: 3, barStartBeat: 8, transport: .playing)
        input.pushTimeline(song, frame: 1000)
        #expect(timing.timeline(from: input, start: 512, sampleRate: 48_000) == nil)  // not yet
        let host = timing.timeline(from: input, start: 1024, sampleRate: 48_000)
        #expect(host?.samplePosition == 1024)
        #expect(host?.tempo == 90)
        #expect(abs((host?.beat ?? 0) - (8 + 24.0 / 48_000 * 1.5)) < 1e-12)  // 24 frames at 1.5 quarters a second
        #expect(timing.timeline(from: input, start: 2048, sampleRate: 48_000) == nil)  // taken once
        input.pushTimeline(song, frame: 3000)
        input.cut()
        input.pushTimeline(HostSync(transport: .stopped), frame: 2100)
        #expect(timing.timeline(from: input, start: 4096, sampleRate: 48_000)?.transport == .stopped)
    }
}
