import ALSA
import AllocationCounter
import AudioHost
import Foundation
import MIDICore
import RenderCore
import Sequencer
import Synchronization
import Synth
import Testing
import TestSupport

/// The last node of the program: on the render thread, it opens the counted stretch in its
/// `warmUpBlocks`-th block and closes it once `countedBlocks` blocks have passed and the
/// test has streamed enough live events (`eventsStreamed`), so the count covers whole turns
/// of the driver's loop — live ring, engine, interleave, PCM write — with live input, after
/// the thread's start-up (creating a thread and the runtime's first uses allocate), and no
/// other thread's allocations. (The `null` PCM takes blocks as fast as they come: a number
/// of blocks alone says nothing of how many events arrived meanwhile.)
private final class CountedStretch: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .effect, subtype: "allc", manufacturer: "test", name: "counted stretch", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    let warmUpBlocks: Int
    let countedBlocks: Int
    /// Allocates once inside the stretch: the control run, which must be counted.
    let allocatesOnce: Bool
    /// Set on the render thread when counting begins.
    let counting = Atomic<Bool>(false)
    /// Set by the test thread once it has pushed enough live events into the counted stretch.
    let eventsStreamed = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
    private var blocks = 0

    init(warmUpBlocks: Int, countedBlocks: Int, allocatesOnce: Bool = false) {
        self.warmUpBlocks = warmUpBlocks
        self.countedBlocks = countedBlocks
        self.allocatesOnce = allocatesOnce
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    /// - Thread: render.
    func process(_ context: ProcessContext) {
        blocks += 1
        if blocks == warmUpBlocks {
            AllocationCounter.watchCurrentThread()
            counting.store(true, ordering: .releasing)
        } else if blocks == warmUpBlocks + 1, allocatesOnce {
            let array = [Int](repeating: blocks, count: context.frames + 100)
            precondition(array.count > 100)
        } else if blocks >= warmUpBlocks + countedBlocks, !finished.load(ordering: .relaxed),
                  eventsStreamed.load(ordering: .acquiring) {
            AllocationCounter.stopWatching()
            finished.store(true, ordering: .releasing)
        }
    }
}

/// The live driver loop allocates nothing (docs/live.md, "The render thread"): the render
/// thread of an `AudioDriver` playing the built-in synth through alsa-lib's `file` plugin
/// (into /dev/null over the `null` PCM: no sound card), with live events streaming into
/// its input ring (pushed, and staged and published), the transport's events and timeline
/// points streaming into its sequenced ring (with cuts), a second output's node handing
/// every block to its writer, and the audio tap armed (a recording) taking in turn the master output,
/// a node's, an absent node's (silence) and silence, in every sample format the device may
/// negotiate.
@Suite(.serialized) struct RenderLoopAllocationTests {
    static let bankFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("patches/presets").path

    /// Rounds of four live events (note on, CC, bend, note off) pushed while counting.
    static let streamedRounds = 100

    /// Plays live until `stretch` has closed, feeding the live ring from this thread (at
    /// least `streamedRounds` rounds once counting has begun); returns the allocations
    /// counted on the render thread.
    private func countAllocations(format: PCMSampleFormat, stretch: CountedStretch) throws -> Int {
        let options = AudioDriverOptions(pcm: PCMConfiguration(periodFrames: 64, formats: [format]), realtimePriority: false)
        let driver = try AudioDriver(device: "file:\"/dev/null\",raw", options: options)
        #expect(driver.settings.format == format)
        let synth = SynthNode(bank: try PresetBankLoader.load(directory: Self.bankFolder), voiceCapacity: 16)
        let engine = RenderEngine()
        // A second output (its writer thread plays /dev/null): its node hands every block over.
        let secondOutput = AudioOutputFeed(device: "file:\"/dev/null\",raw", format: driver.renderFormat) { _ in }
        defer { secondOutput.stop() }
        engine.install(RenderProgram(nodes: StandardGraph(playing: synth).nodes + [secondOutput.node, stretch],
                                     format: driver.renderFormat))
        var sent = 0, sentWhileCounting = 0
        driver.tap.arm()
        let counted = try AllocationCounter.session {
            try driver.start(engine: engine)
            // One round of live events per check, every 200 µs, until the stretch has closed.
            try driver.waitUntil({
                if stretch.finished.load(ordering: .acquiring) { return true }
                #expect(driver.isRunning, "the render thread ended early: \(driver.failure.map(\.description) ?? "")")
                guard driver.isRunning else { return true }
                let channel = UInt8(sent % 16), note = UInt8(36 + sent * 7 % 60)
                let arrival = HostTime.now()  // a batch, as the daemon stages and publishes it
                driver.live.stage(.noteOn(channel: channel, note: note, velocity: 90), arrival: arrival)
                driver.live.stage(.controlChange(channel: channel, controller: [1, 7, 10, 64][sent % 4], value: UInt8(sent % 128)),
                                  arrival: arrival)
                driver.live.publish()
                driver.live.push(.pitchBend(channel: channel, value: UInt16(sent * 97 % 16_384)))
                driver.live.push(.noteOff(channel: channel, note: note))
                let frame = driver.framesRendered + 128
                driver.sequenced.push(.noteOn(channel: channel, note: note + 1, velocity: 80), node: 0, frame: frame)
                driver.sequenced.push(.noteOff(channel: channel, note: note + 1, velocity: 0), node: 0, frame: frame + 32)
                driver.sequenced.pushTimeline(HostSync(tempo: 100 + Double(sent % 50), transport: sent % 7 == 0 ? .stopped : .playing),
                                              frame: frame)
                if sent % 10 == 9 { driver.sequenced.cut() }
                driver.tap.source = [.master, .node(0), .node(999), .silence][sent % 4]
                sent += 1
                if stretch.counting.load(ordering: .acquiring) {
                    sentWhileCounting += 1
                    if sentWhileCounting == Self.streamedRounds { stretch.eventsStreamed.store(true, ordering: .releasing) }
                }
                return false
            }, pollMicroseconds: 200, message: "the counted stretch never closed (\(driver.counters.framesRendered) frames rendered)")
            try driver.stopWithDeadline()
        }
        #expect(sentWhileCounting >= Self.streamedRounds, "live events streamed in while allocations were counted")
        return counted
    }

    @Test(arguments: PCMSampleFormat.allCases)
    func liveBlocksAllocateNothing(format: PCMSampleFormat) throws {
        let stretch = CountedStretch(warmUpBlocks: 200, countedBlocks: 2_500)
        let counted = try countAllocations(format: format, stretch: stretch)
        #expect(counted == 0, "the live render loop allocated \(counted) times in 2,500 blocks of \(format)")
    }

    /// Without this, a counter that sees nothing would pass the test above.
    @Test func theCounterSeesAnAllocationOnTheRenderThread() throws {
        let stretch = CountedStretch(warmUpBlocks: 200, countedBlocks: 100, allocatesOnce: true)
        let counted = try countAllocations(format: .float32LE, stretch: stretch)
        #expect(counted >= 1, "the allocation hook did not see the render thread allocate")
    }
}
