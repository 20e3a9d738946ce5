import RenderCore
import Testing
@testable import Synth

/// The synth's knobs (`SoundShaping`): each moves what it names, on every preset.
@Suite struct SynthKnobTests {
    /// The left channel of A3 held from frame 1 to `release` through a synth of `timbre`
    /// with the knob `parameter` at `value` (set at frame 0).
    private func play(_ timbre: Timbre, _ parameter: SynthNode.Parameter, _ value: Float,
                      frames: Int64 = 24_000, release: Int64 = 20_000) -> [Float] {
        render([(0, .parameter(node: 0, id: parameter.rawValue, value: value)),
                (1, .noteOn(channel: 0, note: 57, velocity: 100)),
                (release, .noteOff(channel: 0, note: 57))], frames: frames, nodes: [synth(timbre)]).left
    }

    /// RMS of the first difference over the RMS: a rough measure of how bright a sound is.
    private func brightness(_ samples: ArraySlice<Float>) -> Double {
        let differences = zip(samples.dropFirst(), samples).map { $0 - $1 }
        return rms(differences[...]) / rms(samples)
    }

    /// The first frame where the 64-frame peak reaches half of the whole peak.
    private func halfPeakFrame(_ samples: [Float]) -> Int {
        let top = peak(samples, 0..<samples.count)
        return stride(from: 0, to: samples.count, by: 64).first { peak(samples, $0..<min($0 + 64, samples.count)) >= top / 2 } ?? -1
    }

    @Test func brightnessMovesTheCutoffOfEveryPreset() {
        var timbre = testTimbre(.saw)
        timbre.filterCutoff = 4_000
        let open = brightness(play(timbre, .brightness, 0)[4_800..<19_200])
        let dark = brightness(play(timbre, .brightness, -36)[4_800..<19_200])
        #expect(dark < 0.5 * open, "−36 semitones darkens the saw: \(dark) against \(open)")
    }

    @Test func resonanceAddsToThePresetsAndStaysInItsRange() {
        var timbre = testTimbre(.saw)
        timbre.filterCutoff = 1_000
        let plain = rms(play(timbre, .resonance, 0)[4_800..<19_200])
        let resonant = rms(play(timbre, .resonance, 1)[4_800..<19_200])
        #expect(resonant > 1.2 * plain, "a resonant peak at the cutoff: \(resonant) against \(plain)")
        #expect(SoundShaping(resonance: 1).resonance(0.5) == 0.98)
    }

    @Test func attackAndReleaseScaleTheEnvelopesOfNewNotes() {
        let timbre = testTimbre(.sine, attack: 0.02, release: 0.05)
        let quick = halfPeakFrame(play(timbre, .attack, 1)), slow = halfPeakFrame(play(timbre, .attack, 10))
        #expect(slow > 5 * max(quick, 64), "attack × 10: half level at frame \(slow) against \(quick)")
        // After the note-off at 20000: ×10 release still sounds 50 ms later, ×1 has faded.
        let short = play(timbre, .release, 1), long = play(timbre, .release, 10)
        #expect(peak(long, 22_400..<23_000) > 10 * peak(short, 22_400..<23_000))
    }

    @Test func vibratoBendsThePitchAroundTheNote() {
        var timbre = testTimbre(.sine)
        timbre.lfoRate = 5
        func spread(_ samples: [Float]) -> Double {
            let frequencies = stride(from: 2_400, to: 19_200, by: 1_200).map {
                measureFrequency(samples, in: $0..<$0 + 1_200, sampleRate: 48_000)
            }
            return cents(frequencies.max()!, from: frequencies.min()!)
        }
        #expect(spread(play(timbre, .vibrato, 0)) < 2)
        #expect(spread(play(timbre, .vibrato, 50)) > 40, "±50 cents of vibrato")
    }

    @Test func detunePullsTheTwoOscillatorsApart() {
        var timbre = testTimbre(.sine)
        timbre.osc2Wave = .sine
        timbre.osc2Level = 1
        /// How much the 10 ms level moves: two oscillators apart beat.
        func beating(_ samples: [Float]) -> Double {
            let levels = stride(from: 2_400, to: 19_200, by: 480).map { rms(samples[$0..<$0 + 480]) }
            return levels.max()! / max(levels.min()!, 1e-9)
        }
        #expect(beating(play(timbre, .detune, 0)) < 1.15, "in tune: only the windows' partial cycles")
        #expect(beating(play(timbre, .detune, 50)) > 3, "50 cents apart the two beat")
    }
}
