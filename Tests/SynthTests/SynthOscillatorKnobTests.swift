import Foundation
import RenderCore
import Testing
@testable import Synth

/// The oscillator knobs, measured on A4 (440 Hz) with the filter open: a waveform by its
/// harmonics, the mix by each oscillator's component, a pitch by zero crossings.
@Suite struct SynthOscillatorKnobTests {
    /// 0.1…0.9 s: whole cycles of 110, 220, 440 and 880 Hz.
    static let steady = 4_800..<43_200

    /// Harmonics 1…3 of 440 Hz in `samples`, as fractions of the first: (h2, h3).
    static func harmonics(_ samples: [Float]) -> (Double, Double) {
        let h = (1...3).map { KnobPlay.amplitude(samples, steady, frequency: 440 * Double($0)) }
        return (h[1] / h[0], h[2] / h[0])
    }

    @Test func osc1WaveReplacesThePresetsWaveform() {
        let saw = testTimbre(.saw)
        // 0 keeps the preset's saw: the second harmonic at half the first.
        #expect(abs(Self.harmonics(KnobPlay.hold(saw)).0 - 0.5) < 0.02)
        let sine = Self.harmonics(KnobPlay.hold(saw, [(.osc1Wave, 1)]))
        #expect(sine.0 < 0.005 && sine.1 < 0.005, "sine: no harmonics, \(sine)")
        let triangle = Self.harmonics(KnobPlay.hold(saw, [(.osc1Wave, 2)]))
        #expect(triangle.0 < 0.005 && abs(triangle.1 - 1.0 / 9) < 0.01, "triangle: odd harmonics at 1/n², \(triangle)")
        let square = Self.harmonics(KnobPlay.hold(saw, [(.osc1Wave, 4)]))
        #expect(square.0 < 0.01 && abs(square.1 - 1.0 / 3) < 0.02, "square: odd harmonics at 1/n, \(square)")
        let fromSine = Self.harmonics(KnobPlay.hold(testTimbre(.sine), [(.osc1Wave, 3)]))
        #expect(abs(fromSine.0 - 0.5) < 0.02 && abs(fromSine.1 - 1.0 / 3) < 0.02, "saw over a sine preset: \(fromSine)")
    }

    @Test func osc2WaveReplacesTheSecondOscillatorsWaveform() {
        var timbre = testTimbre(.sine)
        timbre.osc1Level = 0
        timbre.osc2Level = 1
        timbre.osc2Wave = .square
        #expect(abs(Self.harmonics(KnobPlay.hold(timbre)).1 - 1.0 / 3) < 0.02, "the preset's square")
        let sine = Self.harmonics(KnobPlay.hold(timbre, [(.osc2Wave, 1)]))
        #expect(sine.0 < 0.005 && sine.1 < 0.005, "sine: \(sine)")
    }

    /// Oscillator 1 a sine at the key, oscillator 2 a sine an octave up at `level2`.
    static func pair(level2: Float) -> Timbre {
        var timbre = testTimbre(.sine)
        timbre.osc2Wave = .sine
        timbre.osc2Semitones = 12
        timbre.osc2Level = level2
        return timbre
    }

    /// The 440 Hz (oscillator 1) and 880 Hz (oscillator 2) components.
    static func components(_ samples: [Float]) -> (Double, Double) {
        (KnobPlay.amplitude(samples, steady, frequency: 440), KnobPlay.amplitude(samples, steady, frequency: 880))
    }

    @Test func oscMixMovesTheBalanceAtThePresetsLevel() {
        let alone = Self.components(KnobPlay.hold(Self.pair(level2: 0)))
        #expect(alone.1 < 0.001 * alone.0, "the preset: oscillator 1 alone")
        let full = alone.0
        let over = Self.components(KnobPlay.hold(Self.pair(level2: 0), [(.oscMix, 1)]))
        #expect(over.0 < 0.001 * full && abs(over.1 / full - 1) < 0.01, "mix 1: oscillator 2 alone, as loud: \(over)")
        let half = Self.components(KnobPlay.hold(Self.pair(level2: 0), [(.oscMix, 0.5)]))
        #expect(abs(half.0 / full - 0.5) < 0.01 && abs(half.1 / full - 0.5) < 0.01, "mix 0.5: half each, \(half)")
        // An even preset (1 and 1) pulled to oscillator 1: all of the level on it.
        let even = Self.components(KnobPlay.hold(Self.pair(level2: 1), [(.oscMix, -1)]))
        #expect(abs(even.0 / full - 2) < 0.02 && even.1 < 0.001 * full, "mix −1 of 1 + 1: \(even)")
    }

    @Test func osc2TuneMovesTheSecondOscillatorsInterval() {
        var timbre = testTimbre(.sine)
        timbre.osc1Level = 0
        timbre.osc2Wave = .sine
        timbre.osc2Level = 1
        for (semitones, expected) in [(Float(0), 440.0), (7, 440 * pow(2, 7.0 / 12)), (-12, 220)] {
            let out = KnobPlay.hold(timbre, [(.osc2Tune, semitones)])
            let measured = measureFrequency(out, in: Self.steady, sampleRate: KnobPlay.rate)
            #expect(abs(cents(measured, from: expected)) < 0.5, "osc2 tune \(semitones): \(measured) Hz")
        }
    }

    @Test func subAddsASquareAnOctaveBelow() {
        let timbre = testTimbre(.sine)
        let plain = KnobPlay.hold(timbre)
        let level = KnobPlay.amplitude(plain, Self.steady, frequency: 440)
        #expect(KnobPlay.amplitude(plain, Self.steady, frequency: 220) < 0.001 * level)
        for sub in [0.5, 1.0] {
            let out = KnobPlay.hold(timbre, [(.sub, Float(sub))])
            // A square of level L has its fundamental at 4L/π, its third harmonic at a third of that.
            let fundamental = KnobPlay.amplitude(out, Self.steady, frequency: 220)
            let third = KnobPlay.amplitude(out, Self.steady, frequency: 660)
            #expect(abs(fundamental / level - 4 / Double.pi * sub) < 0.02, "sub \(sub): \(fundamental / level)")
            #expect(abs(third / fundamental - 1.0 / 3) < 0.02, "a square: \(third / fundamental)")
            #expect(abs(KnobPlay.amplitude(out, Self.steady, frequency: 440) / level - 1) < 0.01, "the note stays")
        }
    }

    @Test func noiseAddsToThePresetsNoise() {
        let timbre = testTimbre(.sine)
        let plain = KnobPlay.hold(timbre)
        func withNoise(_ level: Float) -> Timbre {
            var noisy = timbre
            noisy.noiseLevel = level
            return noisy
        }
        // Noise 1 over a preset without: the preset with noise level 1, sample for sample.
        let noisy = KnobPlay.hold(timbre, [(.noise, 1)])
        #expect(noisy == KnobPlay.hold(withNoise(1)))
        #expect(rms(noisy[Self.steady]) > 1.15 * rms(plain[Self.steady]), "the noise is heard")
        #expect(abs(KnobPlay.amplitude(noisy, Self.steady, frequency: 440) / KnobPlay.amplitude(plain, Self.steady, frequency: 440) - 1)
                < 0.01, "the note stays")
        // Added to a preset's own: 1 + 0.5; and taken away: 1 − 1 is the plain sine.
        #expect(KnobPlay.hold(withNoise(1), [(.noise, 0.5)]) == KnobPlay.hold(withNoise(1.5)))
        #expect(KnobPlay.hold(withNoise(1), [(.noise, -1)]) == plain)
    }

    /// The largest third difference in `range`: tiny for a low sine, about the size of any
    /// step (a click) in the level or the waveform.
    static func roughness(_ samples: [Float], _ range: Range<Int>) -> Float {
        range.dropFirst(3).reduce(0) { result, i in
            max(result, abs(samples[i] - 3 * samples[i - 1] + 3 * samples[i - 2] - samples[i - 3]))
        }
    }

    @Test(arguments: [
        (SynthNode.Parameter.oscMix, Float(0), Float(1)),
        (.sub, 0, 1),
        (.cutoff, -24, 24),
        (.resonance, 0, 0.9),
        (.filterEnv, 0, 36),
        (.osc1Wave, 1, 2),
        (.lfoDepth, 0, 1),
    ])
    func turningAKnobMidNoteDoesNotClick(parameter: SynthNode.Parameter, from: Float, to: Float) {
        // A2 (a sine at 110 Hz, and one at 220 Hz for the mix), the filter at 400 Hz, the LFO
        // on the level at 0.5 Hz: the knob jumps at 0.5 s. Unsmoothed, the cutoff's jump
        // alone gives about 0.02 of the level; smoothed, 0.003.
        var timbre = Self.pair(level2: 0)
        timbre.filterCutoff = 400
        timbre.lfoRate = 0.5
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 0, note: 45, velocity: 100)),
            (24_000, .parameter(node: 0, id: parameter.rawValue, value: to)),
        ]
        let out = KnobPlay.render(timbre, [(parameter, from), (.lfoTarget, 2)], events, frames: 36_000)
        let level = peak(out, 12_000..<24_000)
        let before = Self.roughness(out, 12_000..<24_000), during = Self.roughness(out, 23_900..<36_000)
        #expect(during < 0.01 * level, "\(parameter) \(from) → \(to): third difference \(during) (before \(before), level \(level))")
    }
}
