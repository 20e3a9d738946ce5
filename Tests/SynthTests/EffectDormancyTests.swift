import Foundation
import RenderCore
import Testing
@testable import Synth

/// Effects skip silence: once the input is silent and the tail has died away they go
/// dormant (no work, silent output), and sound wakes them at once.
struct EffectDormancyTests {
    private func process(_ effect: EffectNode, _ left: inout [Float], _ right: inout [Float]) {
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                effect.process(ProcessContext(frames: l.count, events: UnsafeBufferPointer(start: nil, count: 0),
                                              bus: AudioBus(left: l.baseAddress!, right: r.baseAddress!), host: HostSync()))
            }
        }
    }

    @Test(arguments: [ReverbNode(), StereoDelayNode(), ChorusNode(), EqualizerNode(), CompressorNode()] as [EffectNode])
    func anEffectSleepsThroughSilenceAndWakesForSound(_ effect: EffectNode) {
        effect.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
        #expect(effect.isDormant, "a fresh effect has nothing to play")
        var left = (0..<512).map { Float(sin(Double($0) * 0.05)) * 0.5 }, right = left
        process(effect, &left, &right)
        #expect(!effect.isDormant, "sound woke the effect")
        #expect(left.contains { $0 != 0 })

        // Silence: the tail rings out, then the effect sleeps and leaves the bus silent.
        var blocks = 0
        while !effect.isDormant && blocks < 2_000 {
            var silentLeft = [Float](repeating: 0, count: 512), silentRight = silentLeft
            process(effect, &silentLeft, &silentRight)
            blocks += 1
        }
        #expect(effect.isDormant, "still awake after \(blocks) blocks of silence")
        #expect(blocks * 512 >= effect.tailFrames, "slept before its tail (\(effect.tailFrames) frames) could have ended")
        var silentLeft = [Float](repeating: 0, count: 512), silentRight = silentLeft
        process(effect, &silentLeft, &silentRight)
        #expect(silentLeft.allSatisfy { $0 == 0 } && silentRight.allSatisfy { $0 == 0 })

        // A sound wakes it in the same chunk.
        var again = [Float](repeating: 0, count: 512), againRight = again
        again[100] = 0.5
        againRight[100] = 0.5
        process(effect, &again, &againRight)
        #expect(!effect.isDormant)
    }
}
