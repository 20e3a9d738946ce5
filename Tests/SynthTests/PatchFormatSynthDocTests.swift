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
        let lines = try Repository.text(Self.page).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "### The synth's knobs"))
        let rows = lines[start...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) } }
        var documented: [String] = []
        for row in rows {
            try #require(row.count == 5, "\(row)")
            let name = try #require(row[0].firstMatch(of: /^`([^`]+)`$/)?.output.1).description
            documented.append(name)
            let info = try #require(Self.synth.parameters.first { $0.name == name }, "the synth has no '\(name)'")
            let range = row[1].replacingOccurrences(of: "−", with: "-").firstMatch(of: /^(-?[0-9.]+)…(-?[0-9.]+)$/)
            #expect(range.flatMap { Float($0.output.1) } == info.range.lowerBound
                    && range.flatMap { Float($0.output.2) } == info.range.upperBound, "the range of '\(name)': \(row[1])")
            #expect(row[2] == info.unit.rawValue, "the unit of '\(name)' is \(info.unit.rawValue), not \(row[2])")
            #expect(Float(row[3].replacingOccurrences(of: "−", with: "-")) == info.defaultValue, "the default of '\(name)'")
            #expect(!row[4].isEmpty, "what '\(name)' does")
        }
        #expect(documented == Self.synth.parameters.dropFirst(2).map(\.name), "every knob, in the order `nodes --types` lists them")
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
