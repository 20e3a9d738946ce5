import Foundation
import RenderCore
import Testing
@testable import Synth

@Suite struct MixerStripTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    /// Runs `strip` on `blocks` blocks of a constant (1, 1) input, applying `events` in the
    /// first block; the last frame's left and right.
    private func levels(_ strip: MixerStripNode, events: [RenderEvent] = [], blocks: Int = 20) -> (Float, Float) {
        if strip.preparedFormat == nil { strip.prepare(format: format) }
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        for block in 0..<blocks {
            buffer.left.update(repeating: 1, count: 64)
            buffer.right.update(repeating: 1, count: 64)
            let list = block == 0 ? events : []
            list.withUnsafeBufferPointer { list in
                strip.process(ProcessContext(frames: 64, events: list, bus: buffer.bus, host: HostSync()))
            }
        }
        return (buffer.left[63], buffer.right[63])
    }

    private func set(_ parameter: MixerStripNode.Parameter, _ value: Float) -> RenderEvent {
        .parameter(node: 0, id: parameter.rawValue, value: value, frame: 0)
    }

    @Test func atItsDefaultsTheStripPassesTheSoundUnchanged() {
        let (left, right) = levels(MixerStripNode())
        #expect(left == 1 && right == 1)
    }

    @Test func panHardLeftKeepsOnlyTheLeftChannelAndHalfwayFollowsTheConstantPowerLaw() {
        let (left, right) = levels(MixerStripNode(), events: [set(.pan, -1)])
        #expect(abs(left - 1) < 1e-3 && abs(right) < 1e-3, "hard left: \(left), \(right)")
        let (_, halfwayRight) = levels(MixerStripNode(), events: [set(.pan, -0.5)])
        // √2·sin(π/8): −5.33 dB.
        #expect(abs(20 * log10(halfwayRight) - (-5.33)) < 0.05, "halfway left, the right channel at \(halfwayRight)")
    }

    @Test func gainIsInDecibelsAndMuteSilencesWithoutAClick() {
        let (left, _) = levels(MixerStripNode(), events: [set(.gain, -6)])
        #expect(abs(left - 0.501) < 0.01)
        // A sounding strip muted: the sound glides out within the block.
        let strip = MixerStripNode()
        _ = levels(strip, blocks: 2)
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        buffer.left.update(repeating: 1, count: 64)
        buffer.right.update(repeating: 1, count: 64)
        [set(.mute, 1)].withUnsafeBufferPointer { list in
            strip.process(ProcessContext(frames: 64, events: list, bus: buffer.bus, host: HostSync()))
        }
        #expect(buffer.left[0] > 0.9, "the block starts at the strip's level")
        let steps = (1..<64).map { abs(buffer.left[$0] - buffer.left[$0 - 1]) }
        #expect(buffer.left[63] == 0, "muted by the block's end")
        #expect(steps.max()! < 0.1, "the mute glides: largest step \(steps.max()!)")
    }

    @Test func soloingOneStripSilencesTheOthersOfItsGroupUntilReleased() {
        let group = StripSoloGroup()
        let soloed = MixerStripNode(soloGroup: group), other = MixerStripNode(soloGroup: group)
        let outsider = MixerStripNode()
        _ = levels(soloed, events: [set(.solo, 1)])
        #expect(levels(soloed).0 == 1)
        #expect(levels(other).0 == 0, "another strip of the group falls silent")
        #expect(levels(outsider).0 == 1, "a strip of another group does not")
        _ = levels(soloed, events: [set(.solo, 0)])
        #expect(levels(other).0 == 1, "released, the others sound again")
    }
}
