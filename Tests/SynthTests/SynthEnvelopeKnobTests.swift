import Foundation
import RenderCore
import Testing
@testable import Synth

/// The amplitude envelope's knobs, measured on a sine at 1047 Hz (C6: a 48-frame window
/// holds a peak): times by when the level gets where, the sustain by its level.
@Suite struct SynthEnvelopeKnobTests {
    static let note: UInt8 = 84

    /// The level (peak of 48 frames) at `frame`.
    static func level(_ samples: [Float], at frame: Int) -> Float { peak(samples, frame..<frame + 48) }

    @Test func ampAttackScalesTheRise() {
        // A 20 ms linear rise: half way at 10 ms; × 5, at 50 ms.
        let timbre = testTimbre(.sine, attack: 0.02, decay: 0.1, sustain: 1)
        let plain = KnobPlay.hold(timbre, note: Self.note), slow = KnobPlay.hold(timbre, [(.ampAttack, 5)], note: Self.note)
        let top = Self.level(plain, at: 4_800)
        func halfWay(_ samples: [Float]) -> Int { stride(from: 0, to: 24_000, by: 48).first { Self.level(samples, at: $0) >= top / 2 } ?? -1 }
        #expect(abs(halfWay(plain) - 480) <= 96, "× 1: half way at \(halfWay(plain))")
        #expect(abs(halfWay(slow) - 2_400) <= 96, "× 5: half way at \(halfWay(slow))")
        #expect(abs(Self.level(slow, at: 9_600) / top - 1) < 0.01, "the same level once risen")
    }

    @Test func ampDecayScalesTheFallToTheSustain() {
        // 60 dB toward 0.25 in 0.1 s: by 0.15 s at the sustain; a 1 s decay is still high.
        let timbre = testTimbre(.sine, attack: 0.0001, decay: 0.1, sustain: 0.25)
        let plain = KnobPlay.hold(timbre, note: Self.note), slow = KnobPlay.hold(timbre, [(.ampDecay, 10)], note: Self.note)
        let top = Self.level(KnobPlay.hold(testTimbre(.sine, sustain: 1), note: Self.note), at: 7_200)
        #expect(abs(Self.level(plain, at: 7_200) / top - 0.25) < 0.01)
        // 0.25 + 0.75 × 10^(−3 × 0.15 / 1) = 0.51.
        #expect(abs(Self.level(slow, at: 7_200) / top - 0.51) < 0.02, "\(Self.level(slow, at: 7_200) / top)")
    }

    @Test func ampSustainMovesTheHeldLevel() {
        let timbre = testTimbre(.sine, attack: 0.0001, decay: 0.05, sustain: 1)
        let plain = KnobPlay.hold(timbre, note: Self.note)
        let top = Self.level(plain, at: 24_000)
        let half = KnobPlay.hold(timbre, [(.ampSustain, -0.5)], note: Self.note)
        #expect(abs(Self.level(half, at: 24_000) / top - 0.5) < 0.01, "1 − 0.5")
        let none = KnobPlay.hold(timbre, [(.ampSustain, -1)], note: Self.note)
        #expect(Self.level(none, at: 24_000) < 1e-3 * top, "1 − 1: the note dies away as a pluck")
        let drum = KnobPlay.hold(testTimbre(.sine, attack: 0.0001, decay: 0.05, sustain: 0), [(.ampSustain, 0.5)], note: Self.note)
        #expect(abs(Self.level(drum, at: 24_000) / top - 0.5) < 0.01, "0 + 0.5: a pluck held")
    }

    @Test func ampReleaseScalesTheFadeAndIsReadAtTheNoteOff() {
        // Released at 0.25 s with a 50 ms release; 40 ms later × 1 is near silence, × 10 not.
        let timbre = testTimbre(.sine, attack: 0.0001, decay: 0.05, sustain: 1, release: 0.05)
        let top = Self.level(KnobPlay.hold(timbre, note: Self.note), at: 9_600)
        let plain = KnobPlay.hold(timbre, note: Self.note, release: 12_000)
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 0, note: Self.note, velocity: 100)),
            (6_000, .parameter(node: 0, id: SynthNode.Parameter.ampRelease.rawValue, value: 10)),
            (12_000, .noteOff(channel: 0, note: Self.note)),
        ]
        let slow = KnobPlay.render(timbre, [], events, frames: 48_000)
        // 10^(−3 × 0.04 / 0.05) = 0.004; 10^(−3 × 0.04 / 0.5) = 0.575.
        #expect(Self.level(plain, at: 13_920) / top < 0.01)
        #expect(abs(Self.level(slow, at: 13_920) / top - 0.575) < 0.03, "\(Self.level(slow, at: 13_920) / top)")
    }

    @Test func theAmpAndFilterEnvelopesMoveApartAndTheOldKnobsMoveBoth() {
        var timbre = testTimbre(.sine, attack: 0.5)
        timbre.filterAttack = 0.5
        let ampOnly = SoundShaping(ampAttack: 4).shaped(timbre)
        #expect(ampOnly.ampAttack == 2 && ampOnly.filterAttack == 0.5)
        let filterOnly = SoundShaping(filterAttack: 4, filterSustain: -0.5).shaped(timbre)
        #expect(filterOnly.ampAttack == 0.5 && filterOnly.filterAttack == 2 && filterOnly.filterSustain == 0.5)
        let both = SoundShaping(attack: 2, ampAttack: 4).shaped(timbre)
        #expect(both.ampAttack == 4 && both.filterAttack == 1, "`attack` scales both; the factors multiply")
        let scales = SoundShaping(release: 2, ampRelease: 3, filterRelease: 0.5).releaseScales
        #expect(scales.amp == 6 && scales.filter == 1)
        #expect(SoundShaping().shaped(timbre) == timbre, "at the defaults, the preset as it is")
    }
}
