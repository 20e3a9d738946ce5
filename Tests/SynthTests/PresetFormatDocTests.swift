import Foundation
import Testing
import TestSupport
@testable import Synth

/// docs/preset-format.md against the real preset parser: the example means what its
/// comments say, the error example is what the parser says for the file it names, and
/// the key table's keys, ranges and defaults are the parser's.
@Suite struct PresetFormatDocTests {
    static let page = "docs/preset-format.md"

    @Test func presetFormatExampleParses() throws {
        let blocks = try Repository.blocks(in: Self.page)
        #expect(blocks.count == 1, "the page's blocks changed: update this test")
        let example = try #require(blocks.first)
        let entries = try PresetParser.parse(example.text, file: example.description)
        try #require(entries.count == 2)

        // [preset "Brass"]: GM programs 57-64 (stored 0-based), a saw, the filter at 500 Hz.
        let brass = entries[0]
        #expect(brass.kind == .program && brass.name == "Brass")
        #expect(brass.numbers == Array(56...63))
        var expected = Timbre()
        expected.osc1Wave = .saw
        expected.filterCutoff = 500
        #expect(brass.timbre == expected, "only what the section sets differs from the defaults")

        // [drum "Kick"]: notes 35 and 36, played at note 28, decaying on its own.
        let kick = entries[1]
        #expect(kick.kind == .drum && kick.name == "Kick")
        #expect(kick.numbers == [35, 36])
        var drum = Timbre()
        drum.fixedNote = 28
        drum.ampSustain = 0
        drum.ignoresNoteOff = true
        #expect(kick.timbre == drum, "a drum section starts with amp.sustain = 0 and note-off = ignore")

        // As a bank, the kick plays GM notes 35 and 36 and leaves the other notes silent.
        let bank = try PresetBank(files: [("example.preset", example.text.replacingOccurrences(of: "57-64", with: "1-128"))])
        #expect(bank.drum(note: 35)?.fixedNote == 28 && bank.drum(note: 36)?.fixedNote == 28)
        #expect(bank.drum(note: 38) == nil)
    }

    /// The page's error example, from the brass file with `filter.cutoff` misspelt.
    @Test func presetFormatErrorExampleIsWhatTheParserSays() throws {
        let page = try Repository.text(Self.page)
        let shown = try #require(page.firstMatch(of: /`(patches\/presets\/[^`]+ \(fix: [^`]*)…\)`/)?.output.1)
        let path = "patches/presets/08-brass.preset"
        #expect(shown.hasPrefix(path + ":"))
        var lines = try Repository.text(path).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex(of: "filter.cutoff = 500"))
        lines[line] = "filter.cutof = 500"
        do {
            _ = try PresetParser.parse(lines.joined(separator: "\n"), file: path)
            Issue.record("the misspelt key was accepted")
        } catch {
            #expect("\(error)".hasPrefix(String(shown)), "the parser says: \(error)")
            for key in PresetKey.all.keys { #expect(error.fix.contains(key), "the fix lists '\(key)'") }
        }
    }

    /// Parses one preset section setting `key = value`.
    static func section(_ key: String, _ value: String) throws(PresetError) -> Timbre {
        try PresetParser.parse("[preset T]\nprograms = 1\n\(key) = \(value)", file: "t.preset")[0].timbre
    }

    @Test func presetFormatKeyTableIsTheParsers() throws {
        let lines = try Repository.text(Self.page).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "## Keys"))
        let rows = lines[start...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
            .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        var documented: [String] = []
        for row in rows {
            try #require(row.count == 4, "\(row)")
            // `filter.attack` `decay` …: later names share the first one's prefix.
            let spans = Self.codeSpans(row[0])
            let prefix = spans.first.map { $0.contains(".") ? String($0[...$0.firstIndex(of: ".")!]) : "" } ?? ""
            let keys = spans.enumerated().map { $0.offset == 0 || $0.element.contains(".") ? $0.element : prefix + $0.element }
            documented += keys
            let ranges = Self.perKey(row[1], count: keys.count)
            let defaults = Self.perKey(row[2], count: keys.count)
            for (index, key) in keys.enumerated() {
                let range = ranges[index]
                let value = String(defaults[index].prefix { $0 != " " })
                if value == "key" {
                    #expect(Timbre().fixedNote == -1, "\(key): by default a drum plays the key that triggered it")
                } else {
                    #expect((try? Self.section(key, value)) == Timbre(), "\(key) defaults to \(value)")
                }
                if let match = range.replacingOccurrences(of: "−", with: "-").firstMatch(of: /^(-?[0-9.]+)…(-?[0-9.]+)/),
                   let low = Float(match.output.1), let high = Float(match.output.2) {
                    let beyond = (high - low) / 100
                    #expect((try? Self.section(key, String(match.output.1))) != nil, "\(key) takes \(low)")
                    #expect((try? Self.section(key, String(match.output.2))) != nil, "\(key) takes \(high)")
                    #expect((try? Self.section(key, String(low - beyond))) == nil, "\(key) refuses below \(low)")
                    #expect((try? Self.section(key, String(high + beyond))) == nil, "\(key) refuses above \(high)")
                } else {
                    let words = Self.codeSpans(range)
                    #expect(!words.isEmpty, "\(key): no range or words in '\(range)'")
                    for word in words { #expect((try? Self.section(key, word)) != nil, "\(key) takes \(word)") }
                    #expect((try? Self.section(key, "wobble")) == nil, "\(key) refuses other words")
                }
            }
        }
        #expect(documented.sorted() == PresetKey.all.keys.sorted(), "the table lists every key the parser knows")
    }

    /// A cell's comma-separated values when there is one per key, else the cell for each.
    static func perKey(_ cell: String, count: Int) -> [String] {
        let parts = cell.components(separatedBy: ", ")
        return parts.count == count ? parts : Array(repeating: cell, count: count)
    }

    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
