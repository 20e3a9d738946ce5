import Foundation
import RenderCore
import Testing
import TestSupport
@testable import Synth

/// docs/patch-format.md and docs/soundfont.md on the SoundFont instrument's knobs, against
/// the node: the knob table lists every knob with the range, unit and default `nodes --types`
/// shows, and soundfont.md's mapping of CC 74 to `cutoff` moves the voices' cutoff and the
/// sound as far as its comment says.
@Suite struct SoundFontSoundDocTests {
    static let node = SoundFontNode(font: TestSoundFont(frames: [0, 0, 0, 0]).font, voiceCapacity: 256)

    @Test func theKnobTableIsTheSoundFontInstruments() throws {
        try KnobTable.expectDocuments(Self.node.parameters.dropFirst(3), under: "### The SoundFont instrument's knobs",
                                      in: "docs/patch-format.md")
    }

    @Test func theCutoffKnobExampleClosesTheFilterAsItsCommentSays() throws {
        let blocks = try Repository.blocks(in: "docs/soundfont.md").filter { $0.language == "yaml" }
        let example = try #require(blocks.first { $0.text.contains("to: gm.cutoff") }, "no example maps a knob to the cutoff")
        #expect(example.text.contains("instrument: midihub soundfont"))
        let lines = example.lines
        let index = try #require(lines.firstIndex { $0.contains("to: gm.cutoff") })
        let mapping = try #require(lines[index].firstMatch(of: /control: cc ([0-9]+), to: gm\.cutoff, range: \[(-?[0-9]+), (-?[0-9]+)\]/))
        let low = try #require(Float(mapping.output.2)), high = try #require(Float(mapping.output.3))
        #expect(mapping.output.1 == "74", "the General MIDI brightness controller")
        #expect(lines[index - 1].contains("at 127 as the font has it, at 0 five octaves lower"), "the comment: \(lines[index - 1])")
        let info = try #require(Self.node.parameters.first { $0.name == "cutoff" })
        #expect(info.range.contains(low) && info.range.contains(high) && info.unit == .semitones)

        // A 1000 Hz tone whose zone leaves the filter open (13500 cents), held with the knob at
        // CC `value` (the mapping's range across 0…127): the voice's cutoff, and the level.
        let font = TestSoundFont(frames: TestSoundFont.sine(cycles: 100, count: 4_800), loop: 0..<4_800,
                                 zones: [.init(generators: [(TestGenerator.sampleModes, 1)])])
        func held(cc value: Float) -> (cents: Float, level: Float) {
            let node = SoundFontNode(font: font.font, voiceCapacity: 4)
            let knob = low + (high - low) * value / 127
            let output = render([(0, .parameter(node: 0, id: info.id, value: knob)),
                                 (0, .noteOn(channel: 0, note: 60, velocity: 127))], frames: 24_000, nodes: [node]).left
            let level = (output[4_800...].reduce(Float(0)) { $0 + $1 * $1 } / Float(output.count - 4_800)).squareRoot()
            return (node.voices![0].cutoffCents, level)
        }
        let open = held(cc: 127), closed = held(cc: 0), middle = held(cc: 64)
        #expect(open.cents == 13_500, "CC 74 at 127: the font's cutoff")
        #expect(closed.cents == 13_500 - 6_000, "CC 74 at 0: five octaves lower")
        #expect(abs(middle.cents - (13_500 - 6_000 * 63 / 127)) < 0.5, "CC 74 at 64: \(middle.cents) cents")
        #expect(closed.level < open.level / 2, "the tone above the closed filter is quieter: \(closed.level), \(open.level)")
        let untouched = render([(0, .noteOn(channel: 0, note: 60, velocity: 127))], frames: 24_000,
                               nodes: [SoundFontNode(font: font.font, voiceCapacity: 4)]).left
        let untouchedLevel = (untouched[4_800...].reduce(Float(0)) { $0 + $1 * $1 } / Float(untouched.count - 4_800)).squareRoot()
        #expect(open.level == untouchedLevel, "at 127 the sound is the font's own")
    }
}
