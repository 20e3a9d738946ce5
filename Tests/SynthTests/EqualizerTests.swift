import Foundation
import RenderCore
import Testing
@testable import Synth

/// The equalizer's bands do what their gains say where they act, and nothing elsewhere.
@Suite struct EqualizerTests {
    private func set(_ parameter: EqualizerNode.Parameter, _ value: Float) -> (frame: Int, event: RenderEvent) {
        (0, .parameter(node: 0, id: parameter.rawValue, value: value, frame: 0))
    }

    /// The change in decibels of a `frequency` sine through an equalizer set by `settings`,
    /// measured over the second half second (the filters have settled).
    private func change(at frequency: Double, _ settings: [(frame: Int, event: RenderEvent)]) -> Double {
        let input = sine(frequency)
        let output = runEffect(EqualizerNode(), left: input, right: input, events: settings)
        return decibelChange(input[24_000...], to: output.left[24_000...])
    }

    @Test func flatSettingsPassTheSignalUnchanged() {
        // Three sines and a click, through the default bands and through moved ones at 0 dB.
        let bass = sine(50), mid = sine(1_234, amplitude: 0.3), treble = sine(9_876, amplitude: 0.2)
        let input = bass.indices.map { bass[$0] + mid[$0] + treble[$0] + ($0 == 30_000 ? 0.9 : 0) }
        let reversed = Array(input.reversed())
        let moved = [set(.lowFrequency, 20), set(.midFrequency, 300), set(.midQ, 10), set(.highFrequency, 18_000)]
        for settings in [[], moved] {
            let output = runEffect(EqualizerNode(), left: input, right: reversed, events: settings)
            let error = zip(input, output.left).map { abs($0 - $1) }.max()!
            let errorRight = zip(reversed, output.right).map { abs($0 - $1) }.max()!
            #expect(error < 1e-6 && errorRight < 1e-6, "largest difference \(error), \(errorRight)")
        }
    }

    @Test func aLowShelfBoostRaisesTheBassAndLeavesTheTreble() {
        let boost = [set(.lowGain, 12)]
        let bass = change(at: 50, boost), treble = change(at: 5_000, boost)
        #expect(abs(bass - 12) < 1, "50 Hz changed by \(bass) dB")
        #expect(abs(treble) < 1, "5 kHz changed by \(treble) dB")
    }

    @Test func aMidCutTakesOutItsBandAndLeavesTheEnds() {
        let cut = [set(.midGain, -12), set(.midFrequency, 1_000)]
        let centre = change(at: 1_000, cut), bass = change(at: 100, cut), treble = change(at: 10_000, cut)
        #expect(abs(centre + 12) < 1, "1 kHz changed by \(centre) dB")
        #expect(abs(bass) < 1.5 && abs(treble) < 1.5, "100 Hz changed by \(bass) dB, 10 kHz by \(treble) dB")
    }

    @Test func aHighShelfCutLowersTheTrebleAndLeavesTheBass() {
        let cut = [set(.highGain, -12), set(.highFrequency, 4_000)]
        let treble = change(at: 15_000, cut), bass = change(at: 500, cut)
        #expect(abs(treble + 12) < 1, "15 kHz changed by \(treble) dB")
        #expect(abs(bass) < 1, "500 Hz changed by \(bass) dB")
    }

    @Test func theChannelsAreFilteredApart() {
        // Bass on the left, treble on the right: a low shelf boosts only the left.
        let bass = sine(50), treble = sine(5_000)
        let output = runEffect(EqualizerNode(), left: bass, right: treble, events: [set(.lowGain, 12)])
        let left = decibelChange(bass[24_000...], to: output.left[24_000...])
        let right = decibelChange(treble[24_000...], to: output.right[24_000...])
        #expect(abs(left - 12) < 1 && abs(right) < 1, "left changed by \(left) dB, right by \(right) dB")
    }

    @Test func aSweptBandGlidesWithoutAClick() {
        // The mid band boosted and swept across a sine mid-stream: the output moves no faster
        // than the boosted sine itself can.
        let input = sine(1_000, amplitude: 0.1)
        let sweep = [set(.midGain, 12), set(.midQ, 4), (24_000, .parameter(node: 0, id: EqualizerNode.Parameter.midFrequency.rawValue,
                                                                           value: 3_000, frame: 0))]
        let output = runEffect(EqualizerNode(), left: input, right: input, events: sweep).left
        let steps = (1..<output.count).map { abs(output[$0] - output[$0 - 1]) }
        let boostedStep = Float(0.1 * 3.981 * 2 * Double.pi * 1_000 / 48_000)
        #expect(steps.max()! <= boostedStep * 1.05, "largest step \(steps.max()!), the boosted sine's \(boostedStep)")
        #expect(rms(output[40_000...]) < rms(input[40_000...]) * 1.5, "swept away, the band no longer boosts the sine")
    }
}
