import Foundation
import RenderCore
import Sequencer
import Testing
@testable import Synth

/// The synth's knobs as a list (what `nodes --types` shows and mappings check against), what
/// they do at their defaults (nothing), and how they move (gliding, not jumping).
@Suite struct SynthKnobListTests {
    static let node = SynthNode(bank: PresetBank(timbre: Timbre()), voiceCapacity: 256)

    @Test func everyKnobIsListedWithItsRangeUnitAndDefault() {
        let expected: [(String, ClosedRange<Float>, Float, ParameterUnit)] = [
            ("master gain", -60...12, -10, .decibels), ("voice limit", 1...256, 256, .count),
            ("brightness", -48...48, 0, .semitones), ("resonance", -1...1, 0, .generic),
            ("attack", 0.1...10, 1, .generic), ("release", 0.1...10, 1, .generic),
            ("detune", 0...100, 0, .generic), ("vibrato", 0...100, 0, .generic),
            ("osc1 wave", 0...4, 0, .generic), ("osc2 wave", 0...4, 0, .generic), ("osc mix", -1...1, 0, .generic),
            ("osc2 tune", -24...24, 0, .semitones), ("sub", 0...1, 0, .generic), ("noise", -1...1, 0, .generic),
            ("cutoff", -48...48, 0, .semitones), ("filter env", -48...48, 0, .semitones), ("key track", -1...1, 0, .generic),
            ("amp attack", 0.1...10, 1, .generic), ("amp decay", 0.1...10, 1, .generic),
            ("amp sustain", -1...1, 0, .generic), ("amp release", 0.1...10, 1, .generic),
            ("filter attack", 0.1...10, 1, .generic), ("filter decay", 0.1...10, 1, .generic),
            ("filter sustain", -1...1, 0, .generic), ("filter release", 0.1...10, 1, .generic),
            ("lfo rate", 0...20, 0, .hertz), ("lfo sync", 0...1, 0, .boolean), ("lfo beats", 0.0625...16, 1, .beats),
            ("lfo depth", 0...1, 0, .generic), ("lfo target", 0...2, 0, .generic), ("glide", 0...5, 0, .seconds),
        ]
        let parameters = Self.node.parameters
        #expect(parameters.map(\.name) == expected.map(\.0))
        for (info, want) in zip(parameters, expected) {
            #expect(info.range == want.1 && info.defaultValue == want.2 && info.unit == want.3, "\(info)")
        }
        // Ids 0…n−1 in order, each the `SynthNode.Parameter` case of that name.
        #expect(parameters.map(\.id) == SynthNode.Parameter.allCases.map(\.rawValue))
        for (info, parameter) in zip(parameters, SynthNode.Parameter.allCases) {
            let words = "\(parameter)".replacing(/[A-Z]/) { " " + $0.output.lowercased() }
            #expect(words == info.name, "\(parameter) is '\(info.name)'")
        }
    }

    /// A few bars through the repository's bank: every program family, the drums, bends, the
    /// wheel, the sustain pedal.
    static func song() -> [(Int64, RenderEvent)] {
        var events: [(Int64, RenderEvent)] = []
        for (index, program) in stride(from: 0, to: 128, by: 9).enumerated() {
            let channel = UInt8(index % 8), at = Int64(index) * 6_000 + 100
            events.append((at - 50, .programChange(channel: channel, program: UInt8(program))))
            events.append((at, .noteOn(channel: channel, note: UInt8(48 + index % 24), velocity: UInt8(60 + index * 4))))
            events.append((at + 3_000, .pitchBend(channel: channel, value: UInt16(4_096 + index * 500))))
            events.append((at + 3_500, .controlChange(channel: channel, controller: 1, value: 100)))
            events.append((at + 9_000, .noteOff(channel: channel, note: UInt8(48 + index % 24))))
            events.append((at + 2_000, .noteOn(channel: 9, note: UInt8(35 + index * 3 % 46), velocity: 110)))
        }
        events.append((20_000, .controlChange(channel: 0, controller: 64, value: 127)))
        events.append((60_000, .controlChange(channel: 0, controller: 64, value: 0)))
        return events
    }

    static func repositoryBank() throws -> PresetBank {
        let folder = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        return try PresetBankLoader.load(directory: "/" + folder + "/patches/presets")
    }

    @Test func everyKnobSetToItsDefaultChangesNothing() throws {
        let bank = try Self.repositoryBank()
        let plain = render(Self.song(), frames: 120_000, nodes: [SynthNode(bank: bank)])
        // Every knob moved far and set back before the first note, then set to its default again mid-song.
        var knobs: [(Int64, RenderEvent)] = []
        for info in Self.node.parameters.dropFirst(2) {
            knobs.append((0, .parameter(node: 0, id: info.id, value: info.range.upperBound)))
            knobs.append((50, .parameter(node: 0, id: info.id, value: info.defaultValue)))
            // At a block's first frame (64 × 781), so that the events split no control period.
            knobs.append((49_984, .parameter(node: 0, id: info.id, value: info.defaultValue)))
        }
        let set = render(knobs + Self.song(), frames: 120_000, nodes: [SynthNode(bank: bank)])
        #expect(peak(plain.left, 0..<120_000) > 0.01)
        #expect(set.left == plain.left && set.right == plain.right, "the knobs at their defaults leave every preset as it is")
    }

    @Test func continuousKnobsGlideToANewValueInTwentyMilliseconds() {
        var knobs = SynthKnobs(Self.node.parameters, rampFrames: 960)
        func set(_ parameter: SynthNode.Parameter, _ value: Float) {
            knobs.apply(.parameter(node: 0, id: parameter.rawValue, value: value))
        }
        let settings: [(SynthNode.Parameter, Float)] = [
            (.cutoff, 24), (.brightness, -12), (.resonance, 0.5), (.detune, 30), (.vibrato, 40), (.oscMix, 1),
            (.osc2Tune, 7), (.sub, 1), (.noise, 0.5), (.filterEnv, -12), (.keyTrack, 1),
            (.lfoDepth, 1),  // on the pitch, its default target: 100 cents at depth 1
        ]
        for (parameter, value) in settings { set(parameter, value) }
        let moves: [(String, KeyPath<SoundShaping, Float>, Float)] = [
            ("cutoff + brightness", \.brightness, 12), ("resonance", \.resonance, 0.5), ("detune", \.detune, 30),
            ("vibrato + lfo depth", \.vibrato, 140), ("osc mix", \.oscMix, 1), ("osc2 tune", \.osc2Tune, 7),
            ("sub", \.sub, 1), ("noise", \.noise, 0.5), ("filter env", \.filterEnv, -12), ("key track", \.keyTrack, 1),
        ]
        // 15 periods of 64 frames: each a 15th of the way, there at the last.
        var periods: [SoundShaping] = []
        for _ in 0..<16 { periods.append(knobs.shaping(advancing: 64, secondsPerBeat: 0.5)) }
        for (name, path, end) in moves {
            let values = periods.map { $0[keyPath: path] }
            #expect(abs(values[0] - end / 15) < 1e-3 * abs(end), "\(name): the first period moves a 15th, \(values[0])")
            #expect(abs(values[7] - end * 8 / 15) < 1e-3 * abs(end), "\(name): half way, \(values[7])")
            #expect(values[14] == end && values[15] == end, "\(name): there after 20 ms")
        }
        // The LFO's depth on the cutoff and the level glides the same way (in semitones, a share).
        set(.lfoTarget, 1)
        var moved: [SoundShaping] = []
        for _ in 0..<16 { moved.append(knobs.shaping(advancing: 64, secondsPerBeat: 0.5)) }
        #expect(moved[0].vibrato > 40 && moved[0].lfoCutoff > 0 && moved[15].vibrato == 40 && moved[15].lfoCutoff == 24,
                "switching the target moves the depth over: \(moved[0].vibrato), \(moved[0].lfoCutoff)")
        // Where nothing sounds, a knob is there at once.
        set(.cutoff, -24)
        knobs.settle()
        #expect(knobs.shaping(advancing: 64, secondsPerBeat: 0.5).brightness == -36)
    }

    @Test func switchesAndNoteKnobsTakeTheirValueAtOnce() {
        var knobs = SynthKnobs(Self.node.parameters, rampFrames: 960)
        let settings: [(SynthNode.Parameter, Float)] = [(.osc1Wave, 2.4), (.osc2Wave, 4), (.ampAttack, 3), (.filterSustain, -0.5),
                                                        (.glide, 0.3), (.lfoRate, 6)]
        for (parameter, value) in settings {
            knobs.apply(.parameter(node: 0, id: parameter.rawValue, value: value))
        }
        let shaping = knobs.shaping(advancing: 64, secondsPerBeat: 0.5)
        #expect(shaping.osc1Wave == .triangle && shaping.osc2Wave == .square)
        #expect(shaping.ampAttack == 3 && shaping.filterSustain == -0.5 && shaping.glide == 0.3 && shaping.lfoRate == 6)
        // Synced: a cycle every `lfo beats` quarter notes, whatever `lfo rate` says.
        knobs.apply(.parameter(node: 0, id: SynthNode.Parameter.lfoSync.rawValue, value: 1))
        knobs.apply(.parameter(node: 0, id: SynthNode.Parameter.lfoBeats.rawValue, value: 0.5))
        #expect(knobs.shaping(advancing: 64, secondsPerBeat: 0.5).lfoRate == 4)
        #expect(SynthKnobs.wave(0) == nil && SynthKnobs.wave(1) == .sine && SynthKnobs.wave(3) == .saw)
    }
}
