import Foundation
import RenderCore
import SoundFont
import Testing
@testable import Synth
import VoiceLanes

/// The soundfont instrument on fonts built for each property: exact onsets, pitch from
/// key, root and tuning generators, the pitch wheel, loops, exclusive classes, stealing,
/// the interpolators. Level and timbre against FluidSynth: `SoundFontFidelityTests`.
struct SoundFontNodeTests {
    /// 1000 Hz at 48 kHz, looped whole.
    private static let sineFont = TestSoundFont(frames: TestSoundFont.sine(cycles: 100, count: 4_800), loop: 0..<4_800,
                                                zones: [.init(generators: [(TestGenerator.sampleModes, 1)])])

    private func node(_ font: TestSoundFont, voices: Int = 64, laneWidth: Int = SoundFontVoiceLanes.width) -> SoundFontNode {
        let node = SoundFontNode(font: font.font, voiceCapacity: voices)
        node.laneWidth = laneWidth
        return node
    }

    /// The lane widths this processor runs: four (SSE), and eight where it has AVX2 and FMA.
    private static let laneWidths = SoundFontVoiceLanes.width == 8 ? [4, 8] : [4]

    @Test func aNoteStartsAtItsExactFrame() {
        let constant = TestSoundFont(frames: [Int16](repeating: 16_384, count: 4_800), loop: 0..<4_800,
                                     zones: [.init(generators: [(TestGenerator.sampleModes, 1)])])
        for frame in [0, 1, 37, 63, 64, 1_000] {
            let output = render([(Int64(frame), .noteOn(channel: 0, note: 60, velocity: 127))], frames: 2_048,
                                nodes: [node(constant)]).left
            #expect(output[..<frame].allSatisfy { $0 == 0 }, "sound before frame \(frame)")
            #expect(output[frame] > 0, "silence at the note's frame \(frame)")
        }
    }

    @Test func pitchFollowsKeyRootAndTuningGenerators() {
        let cases: [(key: UInt8, generators: [(UInt16, Int)], cents: Double)] = [
            (60, [], 0), (72, [], 1_200), (53, [], -700),
            (60, [(TestGenerator.coarseTune, 2)], 200), (60, [(TestGenerator.fineTune, -33)], -33),
        ]
        for test in cases {
            var font = Self.sineFont
            font.zones[0].generators += test.generators
            let output = render([(0, .noteOn(channel: 0, note: test.key, velocity: 100))], frames: 24_000, nodes: [node(font)]).left
            let measured = measureFrequency(output, in: 4_800..<24_000, sampleRate: 48_000)
            #expect(abs(cents(measured, from: 1_000) - test.cents) < 1, "key \(test.key) \(test.generators): \(measured) Hz")
        }
    }

    @Test func aSampleAtAnotherRateIsPlayedAtItsPitch() {
        var font = Self.sineFont
        font.sampleRate = 24_000  // the same frames are now a 500 Hz sine
        let output = render([(0, .noteOn(channel: 0, note: 60, velocity: 100))], frames: 24_000, nodes: [node(font)]).left
        #expect(abs(cents(measureFrequency(output, in: 4_800..<24_000, sampleRate: 48_000), from: 500)) < 1)
    }

    @Test func thePitchWheelBendsByItsRPNRangeAsFluidSynthDoes() {
        // FluidSynth's default modulator: 12700 cents × range/128 × bend, so a full bend with the
        // default range of 2 is 198.4 cents, and with a range of 12 set by RPN 0 1190.6 cents.
        let up: [(Int64, RenderEvent)] = [(0, .pitchBend(channel: 0, value: 16_383)), (0, .noteOn(channel: 0, note: 60, velocity: 100))]
        let output = render(up, frames: 24_000, nodes: [node(Self.sineFont)]).left
        #expect(abs(cents(measureFrequency(output, in: 4_800..<24_000, sampleRate: 48_000), from: 1_000) - 198.4) < 1)

        let rpn: [(Int64, RenderEvent)] = [
            (0, .controlChange(channel: 0, controller: 101, value: 0)), (0, .controlChange(channel: 0, controller: 100, value: 0)),
            (0, .controlChange(channel: 0, controller: 6, value: 12)), (0, .noteOn(channel: 0, note: 60, velocity: 100)),
            (2_400, .pitchBend(channel: 0, value: 0)),
        ]
        let wide = render(rpn, frames: 24_000, nodes: [node(Self.sineFont)]).left
        #expect(abs(cents(measureFrequency(wide, in: 4_800..<24_000, sampleRate: 48_000), from: 1_000) + 1_190.6) < 1,
                "a bend while the note sounds moves it")
    }

    @Test func anUnloopedSampleEndsAndALoopedOneSustains() {
        let sine = TestSoundFont.sine(cycles: 10, count: 480)
        var once = TestSoundFont(frames: sine, loop: 0..<480)  // sample mode 0: the loop is ignored
        let unlooped = node(once)
        let output = render([(0, .noteOn(channel: 0, note: 60, velocity: 100))], frames: 4_800, nodes: [unlooped]).left
        #expect(peak(output, 0..<400) > 0.01)
        #expect(peak(output, 600..<4_800) == 0, "the voice played past its sample's end")
        #expect(unlooped.activeVoiceCount == 0)

        once.zones[0].generators = [(TestGenerator.sampleModes, 1)]
        let looped = render([(0, .noteOn(channel: 0, note: 60, velocity: 100))], frames: 48_000, nodes: [node(once)]).left
        #expect(peak(looped, 40_000..<48_000) > 0.01, "a looped sample stopped")

        // Mode 3: loops while held, plays out to the sample's end after the release.
        once.zones[0].generators = [(TestGenerator.sampleModes, 3), (TestGenerator.releaseVolumeEnvelope, 2_400)]
        let untilRelease = node(once)
        let events: [(Int64, RenderEvent)] = [(0, .noteOn(channel: 0, note: 60, velocity: 100)), (24_000, .noteOff(channel: 0, note: 60))]
        let released = render(events, frames: 48_000, nodes: [untilRelease]).left
        #expect(peak(released, 20_000..<24_000) > 0.01, "mode 3 did not loop while held")
        #expect(peak(released, 25_000..<48_000) == 0, "mode 3 kept looping after the release (release time 4 s)")
    }

    @Test func anExclusiveClassCutsTheEarlierNote() {
        var font = Self.sineFont
        font.zones = [.init(keys: 42...42, generators: [(TestGenerator.sampleModes, 1), (TestGenerator.exclusiveClass, 1)]),
                      .init(keys: 46...46, generators: [(TestGenerator.sampleModes, 1), (TestGenerator.exclusiveClass, 1)]),
                      .init(keys: 50...50, generators: [(TestGenerator.sampleModes, 1)])]
        font.bank = 128  // channel 10 plays bank 128
        let events: [(Int64, RenderEvent)] = [(0, .noteOn(channel: 9, note: 46, velocity: 100)),
                                              (0, .noteOn(channel: 9, note: 50, velocity: 100)),
                                              (4_800, .noteOn(channel: 9, note: 42, velocity: 100))]
        let kit = node(font)
        _ = render(events, frames: 9_600, nodes: [kit])
        #expect(kit.activeVoiceCount == 2, "46 was not cut by 42 of its class, or 50 was")
    }

    @Test func theVoiceLimitStealsTheOldestVoice() {
        let limited = node(Self.sineFont, voices: 4)
        var events: [(Int64, RenderEvent)] = []
        for i in 0..<10 { events.append((Int64(i * 480), .noteOn(channel: 0, note: UInt8(50 + i), velocity: 100))) }
        _ = render(events, frames: 9_600, nodes: [limited])
        #expect(limited.activeVoiceCount == 4)
    }

    @Test func voicesSharingVectorLanesSoundAsEachAlone() {
        // A 480-frame loop over the whole sample (a seamless sine): the lanes leave a voice
        // to its own path across the wrap.
        var font = TestSoundFont(frames: TestSoundFont.sine(cycles: 10, count: 480), loop: 0..<480)
        font.zones[0].generators = [(TestGenerator.sampleModes, 1), (TestGenerator.filterCutoff, 9_000),
                                    (TestGenerator.filterQ, 60)]
        expectLanesSoundAsEachAlone(font)
    }

    @Test func voicesWrapTheirLoopsInLanesAsAlone() {
        // A loop inside the sample, with loud frames after its end that a voice must never
        // read (it reads the loop's start there): the lanes take the voices across the wrap.
        let sine = TestSoundFont.sine(cycles: 12, count: 576)
        var font = TestSoundFont(frames: Array(sine[..<560]) + [Int16](repeating: 30_000, count: 40), loop: 80..<560)
        font.zones[0].generators = [(TestGenerator.sampleModes, 1), (TestGenerator.filterCutoff, 9_000),
                                    (TestGenerator.filterQ, 60)]
        expectLanesSoundAsEachAlone(font)
    }

    /// Six notes together render four (or six) to a vector where they can (SoundFontVoiceLanes),
    /// through the filter, at other pitches and pans; each note alone in its own node
    /// renders on the one-voice path. Both sound the same.
    private func expectLanesSoundAsEachAlone(_ font: TestSoundFont, sourceLocation: SourceLocation = #_sourceLocation) {
        typealias Note = (channel: UInt8, start: Int64, end: Int64, key: UInt8, velocity: UInt8)
        let notes: [Note] = [
            (0, 0, 9_000, 60, 100), (1, 37, 12_000, 67, 90), (2, 100, 6_000, 48, 120),
            (3, 333, 12_000, 72, 70), (4, 1_000, 8_000, 55, 110), (5, 2_017, 12_000, 79, 80),
        ]
        // Each on its own channel, panned by its key.
        func events(_ chosen: ArraySlice<Note>) -> [(Int64, RenderEvent)] {
            chosen.flatMap { note in
                [(note.start, RenderEvent.controlChange(channel: note.channel, controller: 10, value: note.key)),
                 (note.start, .noteOn(channel: note.channel, note: note.key, velocity: note.velocity)),
                 (note.end, .noteOff(channel: note.channel, note: note.key))]
            }.sorted { $0.0 < $1.0 }
        }
        var alone = [Float](repeating: 0, count: 12_000)
        for index in notes.indices {
            let one = render(events(notes[index...index]), frames: 12_000, nodes: [node(font)]).left
            for frame in one.indices { alone[frame] += one[frame] }
        }
        let loudest = peak(alone, 0..<alone.count)
        #expect(loudest > 0.05, sourceLocation: sourceLocation)
        for width in Self.laneWidths {
            let together = render(events(notes[...]), frames: 12_000, nodes: [node(font, laneWidth: width)]).left
            let difference = zip(together, alone).map { abs($0 - $1) }.max()!
            // Within the lanes' fixed-point positions (2^-20 of a frame per frame).
            #expect(difference < 2e-3 * loudest, "\(width) lanes: together and alone differ by \(difference) (peak \(loudest))",
                    sourceLocation: sourceLocation)
        }
    }

    @Test func twentyFourBitFramesPlayTheirLowBytesInLanesAndAlone() {
        // A sine of amplitude 3000 in 24-bit steps: in a 24-bit font (words and sm24 bytes)
        // it must sound exactly as the 16-bit font whose words hold the same numbers, 256
        // times quieter — four notes at once (the lanes) and one alone (the one-voice path).
        let values = (0..<480).map { Int32((sin(2 * Double.pi * 10 * Double($0) / 480) * 3000).rounded()) }
        var wide = TestSoundFont(frames: values.map { Int16($0 >> 8) }, loop: 0..<480)
        wide.lowBytes = values.map { UInt8(truncatingIfNeeded: $0) }
        var narrow = TestSoundFont(frames: values.map { Int16($0) }, loop: 0..<480)
        wide.zones[0].generators = [(TestGenerator.sampleModes, 1)]
        narrow.zones[0].generators = [(TestGenerator.sampleModes, 1)]
        // One note alone, four in lanes of four, six in passes of four and two where eight lanes run.
        for keys in [[60], [60, 64, 67, 72], [60, 62, 64, 65, 67, 69]] as [[UInt8]] {
            let events = keys.flatMap { key in
                [(Int64(0), RenderEvent.noteOn(channel: 0, note: key, velocity: 100)), (Int64(6_000), .noteOff(channel: 0, note: key))]
            }
            let quiet = render(events, frames: 7_200, nodes: [node(wide)]).left
            let loud = render(events, frames: 7_200, nodes: [node(narrow)]).left
            let loudest = peak(loud, 0..<loud.count)
            let difference = zip(quiet, loud).map { abs($0 * 256 - $1) }.max()!
            #expect(loudest > 1e-3)
            #expect(difference < 1e-4 * loudest, "\(keys.count) notes: 24-bit × 256 differs by \(difference) (peak \(loudest))")
        }
    }

    /// RMS of the left channel of `output` (the node's main output or send) after 2048 frames
    /// of a held C4 at full velocity with CC 91 at `reverbController`.
    private func level(_ font: TestSoundFont, reverbController: UInt8, output: AudioWiring.Port) -> Float {
        heldNoteLevel(of: node(font), on: output, after: [.controlChange(channel: 0, controller: 91, value: reverbController)])
    }

    @Test func theReverbSendFollowsCC91AndTheZonesSendGenerator() {
        let dry = level(Self.sineFont, reverbController: 127, output: 0)
        let sent = level(Self.sineFont, reverbController: 127, output: AudioWiring.Port(0, output: 1))
        // The default modulator: CC 91 → 20 % × 127/128, unpanned; the dry side panned centre (×√½).
        #expect(abs(sent / dry - 0.1984 / 0.7071) < 0.01, "send \(sent), dry \(dry)")
        #expect(level(Self.sineFont, reverbController: 0, output: AudioWiring.Port(0, output: 1)) == 0,
                "CC 91 at 0 and no send generator: nothing reaches the reverb")
        var generous = Self.sineFont
        generous.zones[0].generators.append((TestGenerator.reverbSend, 500))
        let zoneSend = level(generous, reverbController: 0, output: AudioWiring.Port(0, output: 1))
        #expect(abs(zoneSend / dry - 0.5 / 0.7071) < 0.01, "a zone's 50 % send: \(zoneSend)")
        #expect(level(generous, reverbController: 0, output: AudioWiring.Port(0, output: 2)) == 0, "the chorus gets none")
    }

    @Test func interpolatorsReproducePolynomialsOfTheirOrder() {
        struct Values: FrameSource {
            let f: (Double) -> Double
            func callAsFunction(_ index: Int) -> Float { Float(f(Double(index))) }
        }
        let line = Values { (x: Double) -> Double in 0.25 * x - 3 }
        let parabola = Values { (x: Double) -> Double in 0.5 * x * x - x }  // Catmull-Rom reproduces quadratics
        func quinticValue(_ x: Double) -> Double {
            let x2 = x * x
            return 1e-5 * x2 * x2 * x - 2e-4 * x2 * x2 + 0.001 * x2 * x + 0.01 * x
        }
        let quintic = Values(f: quinticValue)
        for x in stride(from: Float(0), to: 1, by: 0.125) {
            let at = Double(10) + Double(x)
            #expect(abs(LinearInterpolator.value(line, 10, x) - Float(line.f(at))) < 1e-5)
            #expect(abs(CubicInterpolator.value(parabola, 10, x) - Float(parabola.f(at))) < 1e-3)
            #expect(abs(SixPointInterpolator.value(quintic, 10, x) - Float(quintic.f(at))) < 1e-3)
        }
    }
}
