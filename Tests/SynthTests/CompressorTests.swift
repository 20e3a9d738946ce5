import Foundation
import RenderCore
import Testing
@testable import Synth

/// The compressor follows its static curve once settled, limits at ratio 20, leaves quiet
/// sound alone and glides when its settings move.
@Suite struct CompressorTests {
    private func set(_ parameter: CompressorNode.Parameter, _ value: Float, at frame: Int = 0)
        -> (frame: Int, event: RenderEvent) {
        (frame, .parameter(node: 0, id: parameter.rawValue, value: value, frame: 0))
    }

    /// Peak level in dBFS of `samples`.
    private func peakDecibels(_ samples: ArraySlice<Float>) -> Double {
        20 * log10(Double(samples.reduce(0) { max($0, abs($1)) }))
    }

    @Test func soundBelowTheKneePassesUnchanged() {
        // −40 dBFS, far below the default threshold (−12) less half the knee (3).
        let input = sine(440, amplitude: 0.01)
        let output = runEffect(CompressorNode(), left: input, right: input)
        #expect(abs(decibelChange(input[...], to: output.left[...])) < 0.1)
        #expect(abs(decibelChange(input[...], to: output.right[...])) < 0.1)
    }

    @Test func aboveTheThresholdTheLevelRisesAQuarterAsFastAtRatioFour() {
        // 0 dBFS, threshold −20, ratio 4, hard knee: −20 + 20/4 = −15 dBFS.
        let compressor = CompressorNode()
        let input = sine(1_000, amplitude: 1)
        let output = runEffect(compressor, left: input, right: input,
                               events: [set(.threshold, -20), set(.ratio, 4), set(.knee, 0)])
        let level = peakDecibels(output.left[24_000...])
        #expect(abs(level + 15) < 1, "settled at \(level) dBFS")
        #expect(output.left == output.right, "one gain for both channels")
        let reduction = compressor.outputValues.load(CompressorNode.Output.gainReduction.rawValue)
        #expect(reduction > 13 && reduction < 16, "gain reduction output \(reduction) dB")
    }

    @Test func stereoIsLinkedByTheLouderChannel() {
        // Loud on the left, quiet on the right: the right is turned down as much as the left.
        let loud = sine(1_000, amplitude: 1), quiet = sine(1_000, amplitude: 0.01)
        let output = runEffect(CompressorNode(), left: loud, right: quiet, events: [set(.threshold, -20), set(.knee, 0)])
        let left = decibelChange(loud[24_000...], to: output.left[24_000...])
        let right = decibelChange(quiet[24_000...], to: output.right[24_000...])
        #expect(left < -10 && abs(left - right) < 0.01, "left changed by \(left) dB, right by \(right) dB")
    }

    @Test func atRatioTwentyItLimits() {
        // +6 dBFS into threshold −6, ratio 20: −6 + 12/20 = −5.4 dBFS once the attack (5 ms) has acted.
        let input = sine(1_000, amplitude: 2)
        let output = runEffect(CompressorNode(), left: input, right: input, events: [set(.threshold, -6), set(.ratio, 20)])
        let level = peakDecibels(output.left[2_400...])
        #expect(level < -5, "peaks at \(level) dBFS after the first 50 ms")
    }

    @Test func aThresholdJumpGlides() {
        // Settled at threshold 0 (no compression of a −6 dBFS sine), the threshold drops to
        // −40 mid-stream: the gain falls over the attack, each output step no larger than
        // the sine's own largest.
        let input = sine(1_000, amplitude: 0.5)
        let output = runEffect(CompressorNode(), left: input, right: input,
                               events: [set(.threshold, 0), set(.threshold, -40, at: 24_000)]).left
        let steps = (24_001..<output.count).map { abs(output[$0] - output[$0 - 1]) }
        let ownStep = (1..<input.count).map { abs(input[$0] - input[$0 - 1]) }.max()!
        #expect(steps.max()! <= ownStep, "largest step after the jump \(steps.max()!), the sine's \(ownStep)")
        #expect(peakDecibels(output[40_000...]) < -20, "compressed once settled")
    }
}
