import Foundation
import RenderCore
import Testing
import TestSupport
@testable import Synth

/// docs/patch-format.md on the synth's knobs, against the synth: the knob table lists every
/// knob with the range, unit and default `nodes --types` shows, and the page's mapping of a
/// knob to `cutoff` moves the measured cutoff as far as its comment says. (DaemonTests'
/// `patchFormatExamplesLoad` loads the same example with the daemon's node types, which
/// checks the mapping's target and range; the built-in types table is checked there too.)
@Suite struct PatchFormatSynthDocTests {
    static let page = "docs/patch-format.md"
    static let synth = SynthNode(bank: PresetBank(timbre: Timbre()), voiceCapacity: 256)

    @Test func theKnobTableIsTheSynths() throws {
        try KnobTable.expectDocuments(Self.synth.parameters.dropFirst(2), under: "### The synth's knobs", in: Self.page)
    }

    @Test func theCutoffKnobExampleMovesTheCutoffAsItsCommentSays() throws {
        let blocks = try Repository.blocks(in: Self.page).filter { $0.language == "yaml" }
        let example = try #require(blocks.first { $0.text.contains("to: synth.cutoff") }, "no example maps a knob to the cutoff")
        let lines = example.lines
        let index = try #require(lines.firstIndex { $0.contains("to: synth.cutoff") })
        let mapping = try #require(lines[index].firstMatch(of: /control: cc ([0-9]+), to: synth\.cutoff, range: \[(-?[0-9]+), (-?[0-9]+)\]/))
        let low = try #require(Float(mapping.output.2))
        let high = try #require(Float(mapping.output.3))
        #expect(mapping.output.1 == "74", "the General MIDI brightness controller")
        #expect(lines[index - 1].contains("CC 74 moves the synth's cutoff two octaves down and up"), "the comment: \(lines[index - 1])")
        let info = try #require(Self.synth.parameters.first { $0.name == "cutoff" })
        #expect(info.range.contains(low) && info.range.contains(high) && info.unit == .semitones)

        // The knob's ends (CC 0 and 127 give the range's ends) and its middle (64 of 127), on a
        // preset whose cutoff is 440 Hz: two octaves down, two up, and where the preset has it.
        let timbre = Timbre.filtered(cutoff: 440)
        let open = KnobPlay.hold(Timbre.filtered(cutoff: 20_000))
        func cutoff(cc: Float) -> Double {
            let value = low + (high - low) * cc / 127
            return KnobPlay.cutoff(KnobPlay.hold(timbre, [(.cutoff, value)]), open: open, 4_800..<43_200, frequency: 440)
        }
        #expect(abs(KnobPlay.semitones(cutoff(cc: 0), from: 440) + 24) < 0.3, "CC 74 at 0: \(cutoff(cc: 0)) Hz")
        #expect(abs(KnobPlay.semitones(cutoff(cc: 127), from: 440) - 24) < 0.3, "CC 74 at 127: \(cutoff(cc: 127)) Hz")
        #expect(abs(KnobPlay.semitones(cutoff(cc: 64), from: 440) - 0.19) < 0.2, "CC 74 at 64: \(cutoff(cc: 64)) Hz")
    }
}
