import Foundation
import RenderCore
import Testing
@testable import Synth

/// The filter's knobs, measured: a 440 Hz sine through the voice's lowpass, whose level
/// against the open filter gives the cutoff (`KnobPlay.cutoff`).
@Suite struct SynthFilterKnobTests {
    /// A steady stretch of a held note (from 0.1 s, whole cycles of 440 Hz).
    static let steady = 4_800..<43_200

    /// A4 through the open filter: what the measurements compare with.
    static let openFilter = KnobPlay.hold(Timbre.filtered(cutoff: 20_000))

    /// The measured cutoff of `timbre` playing A4 with `knobs`, in `range`.
    static func cutoff(_ timbre: Timbre, _ knobs: [(SynthNode.Parameter, Float)], _ range: Range<Int> = steady,
                       release: Int64? = nil, open: [Float] = SynthFilterKnobTests.openFilter) -> Double {
        KnobPlay.cutoff(KnobPlay.hold(timbre, knobs, release: release), open: open, range, frequency: 440)
    }

    @Test func cutoffMovesTheMeasuredCutoffByItsSemitones() {
        let timbre = Timbre.filtered(cutoff: 440)
        let plain = Self.cutoff(timbre, [])
        #expect(abs(KnobPlay.semitones(plain, from: 440)) < 0.2, "the preset's 440 Hz: measured \(plain) Hz")
        for semitones: Float in [-12, -7, 5, 12, 19] {
            let measured = Self.cutoff(timbre, [(.cutoff, semitones)])
            let moved = KnobPlay.semitones(measured, from: plain)
            #expect(abs(moved - Double(semitones)) < 0.2, "cutoff \(semitones): measured \(measured) Hz, \(moved) semitones")
        }
        // `brightness` is the same move: the two add.
        let both = Self.cutoff(timbre, [(.cutoff, 12), (.brightness, -12)])
        #expect(abs(KnobPlay.semitones(both, from: plain)) < 0.2, "cutoff 12 with brightness −12: \(both) Hz")
    }

    @Test func filterEnvAddsToTheEnvelopesAmount() {
        // The filter envelope rises at once and stays at 1: the cutoff sits at its peak.
        var timbre = Timbre.filtered(cutoff: 440)
        timbre.filterAttack = 0.001
        timbre.filterSustain = 1
        let plain = Self.cutoff(timbre, [])
        let opened = Self.cutoff(timbre, [(.filterEnv, 24)])
        #expect(abs(KnobPlay.semitones(plain, from: 440)) < 0.2, "no envelope amount: \(plain) Hz")
        #expect(abs(KnobPlay.semitones(opened, from: 440) - 24) < 0.3, "24 semitones at the peak: \(opened) Hz")
        // Over a preset's own amount: 12 − 12 leaves the cutoff where it is.
        timbre.filterEnvAmount = 12
        let cancelled = Self.cutoff(timbre, [(.filterEnv, -12)])
        #expect(abs(KnobPlay.semitones(cancelled, from: 440)) < 0.2, "12 − 12: \(cancelled) Hz")
    }

    @Test func keyTrackMakesTheCutoffFollowTheNote() {
        let timbre = Timbre.filtered(cutoff: 440)
        func cutoff(note: UInt8, keyTrack: Float) -> Double {
            let frequency = 440 * pow(2, (Double(note) - 69) / 12)
            let open = KnobPlay.hold(Timbre.filtered(cutoff: 20_000), note: note)
            let filtered = KnobPlay.hold(timbre, [(.keyTrack, keyTrack)], note: note)
            return KnobPlay.cutoff(filtered, open: open, Self.steady, frequency: frequency)
        }
        // Fixed: the same cutoff under A4 and A5.
        #expect(abs(KnobPlay.semitones(cutoff(note: 81, keyTrack: 0), from: cutoff(note: 69, keyTrack: 0))) < 0.2)
        // Full tracking: an octave up moves the cutoff an octave; A4 is 9 semitones above the
        // note (60) where the preset's cutoff is given.
        let a4 = cutoff(note: 69, keyTrack: 1), a5 = cutoff(note: 81, keyTrack: 1)
        #expect(abs(KnobPlay.semitones(a4, from: 440) - 9) < 0.3, "A4 with key tracking: \(a4) Hz")
        #expect(abs(KnobPlay.semitones(a5, from: a4) - 12) < 0.3, "A5 against A4: \(a5) against \(a4) Hz")
        // Half: half an octave.
        let half = KnobPlay.semitones(cutoff(note: 81, keyTrack: 0.5), from: cutoff(note: 69, keyTrack: 0.5))
        #expect(abs(half - 6) < 0.3, "half tracking: \(half) semitones")
    }

    /// A preset whose filter envelope adds two octaves: cutoff 440 Hz, 1760 Hz at the peak.
    static func enveloped(attack: Float = 0.001, decay: Float = 0.2, sustain: Float = 0, release: Float = 0.1) -> Timbre {
        var timbre = Timbre.filtered(cutoff: 440)
        timbre.filterEnvAmount = 24
        timbre.filterAttack = attack
        timbre.filterDecay = decay
        timbre.filterSustain = sustain
        timbre.filterRelease = release
        timbre.ampRelease = 2
        return timbre
    }

    @Test func filterAttackScalesTheEnvelopesRise() {
        // A 0.2 s linear rise; 100…200 ms into the note.
        let timbre = Self.enveloped(attack: 0.2, sustain: 1)
        let window = 4_800..<9_600
        let quick = Self.cutoff(timbre, [(.filterAttack, 0.1)], window)
        let plain = Self.cutoff(timbre, [], window)
        let slow = Self.cutoff(timbre, [(.filterAttack, 10)], window)
        #expect(abs(KnobPlay.semitones(quick, from: 1_760)) < 0.5, "20 ms: at the peak already, \(quick) Hz")
        #expect(plain > 1.5 * slow && quick > 1.3 * plain, "rising: \(slow) < \(plain) < \(quick) Hz")
        #expect(KnobPlay.semitones(slow, from: 440) < 2.5, "2 s: hardly risen, \(slow) Hz")
    }

    @Test func filterDecayAndSustainShapeTheEnvelopesFall() {
        // 60 dB in 0.2 s down to sustain 0: by 0.3 s the cutoff is back at 440 Hz.
        let late = 14_400..<19_200
        let plain = Self.cutoff(Self.enveloped(), [], late)
        #expect(abs(KnobPlay.semitones(plain, from: 440)) < 0.3, "decayed: \(plain) Hz")
        let slow = Self.cutoff(Self.enveloped(), [(.filterDecay, 10)], late)
        #expect(KnobPlay.semitones(slow, from: 440) > 5, "a 2 s decay is still high: \(slow) Hz")
        let held = Self.cutoff(Self.enveloped(), [(.filterSustain, 1)])
        #expect(abs(KnobPlay.semitones(held, from: 1_760)) < 0.3, "sustain 0 + 1 holds the peak: \(held) Hz")
        let halfway = Self.cutoff(Self.enveloped(sustain: 1), [(.filterSustain, -0.5)])
        #expect(abs(KnobPlay.semitones(halfway, from: 440) - 12) < 0.3, "sustain 1 − 0.5: half the amount, \(halfway) Hz")
    }

    @Test func filterReleaseScalesTheFallAfterTheNoteOff() {
        // Held at the peak, released at 0.5 s with a 0.1 s filter release; the level's own
        // release is long (2 s), and the open render releases with it.
        let timbre = Self.enveloped(sustain: 1)
        var openTimbre = Timbre.filtered(cutoff: 20_000)
        openTimbre.ampRelease = 2
        let open = KnobPlay.hold(openTimbre, release: 24_000)
        let after = 28_800..<33_600  // 0.1…0.2 s after the note-off
        let plain = Self.cutoff(timbre, [], after, release: 24_000, open: open)
        let slow = Self.cutoff(timbre, [(.filterRelease, 10)], after, release: 24_000, open: open)
        #expect(KnobPlay.semitones(plain, from: 440) < 1, "released: \(plain) Hz")
        #expect(KnobPlay.semitones(slow, from: 440) > 6, "a 1 s release is still high: \(slow) Hz")
    }

    @Test func theReleaseKnobsAreReadWhenTheNoteIsReleased() {
        // Turned while the note is held (at 0.25 s), they still apply to its release.
        let timbre = Self.enveloped(sustain: 1)
        var openTimbre = Timbre.filtered(cutoff: 20_000)
        openTimbre.ampRelease = 2
        let open = KnobPlay.hold(openTimbre, release: 24_000)
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 0, note: 69, velocity: 100)),
            (12_000, .parameter(node: 0, id: SynthNode.Parameter.filterRelease.rawValue, value: 10)),
            (24_000, .noteOff(channel: 0, note: 69)),
        ]
        let turned = KnobPlay.render(timbre, [], events, frames: 48_000)
        let measured = KnobPlay.cutoff(turned, open: open, 28_800..<33_600, frequency: 440)
        #expect(KnobPlay.semitones(measured, from: 440) > 6, "the release set during the note: \(measured) Hz")
    }
}
