import Foundation
import RenderCore
import Sequencer
import Testing
@testable import Synth

/// The repository's presets sound as they did before the synth's voice was exposed as
/// knobs: a song through every program and the drum kit renders, sample for sample, what
/// it rendered then (a digest of the samples' bits), with the knobs at their defaults and
/// with the first six knobs (the ones the synth had then) turned before the song.
///
/// A change of the synth's sound made on purpose changes the digests: the failure message
/// prints the new ones, to write into `expected` with the change. The last: the saw's and
/// the pulse's PolyBLEP read in centred phase (2026-11-28), every sample within 8e-7 of
/// the one before (−116 dB below the song's peak: rounding).
@Suite struct SynthPresetSoundTests {
    /// (knobs at their defaults, the first six knobs turned).
    static let expected: (UInt64, UInt64) = (0xc861_85df_2908_09d5, 0xf73e_b330_d381_716d)

    static let frames: Int64 = 250_000

    /// Every program (channels 1…16 but 10 in turn, overlapping), the drum kit's notes on
    /// channel 10, with bends, the wheel, pan, volume and the sustain pedal.
    static func song() -> [(Int64, RenderEvent)] {
        var events: [(Int64, RenderEvent)] = []
        for program in 0..<128 {
            let channel = UInt8([0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15][program % 15])
            let at = Int64(program) * 1_875 + 100, note = UInt8(36 + program * 5 % 48)
            events.append((at - 50, .programChange(channel: channel, program: UInt8(program))))
            events.append((at - 40, .controlChange(channel: channel, controller: 10, value: UInt8(program % 128))))
            events.append((at, .noteOn(channel: channel, note: note, velocity: UInt8(40 + program % 80))))
            events.append((at + 2_000, .pitchBend(channel: channel, value: UInt16((program * 331) % 16_384))))
            events.append((at + 3_000, .controlChange(channel: channel, controller: 1, value: UInt8(program % 128))))
            events.append((at + 9_000, .noteOff(channel: channel, note: note)))
        }
        for (index, key) in (35...81).enumerated() {
            events.append((Int64(index) * 5_000 + 300, .noteOn(channel: 9, note: UInt8(key), velocity: 100)))
        }
        events.append((30_000, .controlChange(channel: 0, controller: 64, value: 127)))
        events.append((90_000, .controlChange(channel: 0, controller: 64, value: 0)))
        events.append((120_000, .controlChange(channel: 2, controller: 7, value: 70)))
        return events
    }

    /// FNV-1a over the samples' bit patterns, left and right interleaved.
    static func digest(_ sink: MemorySink) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (left, right) in zip(sink.left, sink.right) {
            hash = (hash ^ UInt64(left.bitPattern)) &* 0x100_0000_01b3
            hash = (hash ^ UInt64(right.bitPattern)) &* 0x100_0000_01b3
        }
        return hash
    }

    @Test func theRepositoryPresetsRenderAsTheyDidBeforeTheKnobs() throws {
        let folder = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let bank = try PresetBankLoader.load(directory: "/" + folder + "/patches/presets")
        let plain = render(Self.song(), frames: Self.frames, nodes: [SynthNode(bank: bank)])
        // brightness, resonance, attack, release, detune, vibrato (ids 2…7), before any note.
        let turned = zip(2...7, [-7, 0.2, 2, 0.5, 15, 20] as [Float]).map { id, value in
            (Int64(0), RenderEvent.parameter(node: 0, id: UInt32(id), value: value))
        }
        let knobs = render(turned + Self.song(), frames: Self.frames, nodes: [SynthNode(bank: bank)])
        #expect(peak(plain.left, 0..<Int(Self.frames)) > 0.01 && peak(knobs.left, 0..<Int(Self.frames)) > 0.01)
        let digests = (Self.digest(plain), Self.digest(knobs))
        print("synth preset digests: 0x\(String(digests.0, radix: 16)), 0x\(String(digests.1, radix: 16))")
        #expect(digests.0 == Self.expected.0, "at the knobs' defaults: digest 0x\(String(digests.0, radix: 16))")
        #expect(digests.1 == Self.expected.1, "the first six knobs turned: digest 0x\(String(digests.1, radix: 16))")
    }
}
