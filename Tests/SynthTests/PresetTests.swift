import Foundation
import Sequencer
import Testing
@testable import Synth

@Suite struct PresetTests {
    @Test func parsesSectionsKeysAndProgramRanges() throws {
        let text = """
        # comment
        [preset "Lead"]
        programs = 1-2, 5   # trailing comment
        osc1.wave = square
        filter.cutoff = 1200
        [drum Kick]
        notes = 36
        note = 28
        """
        let entries = try PresetParser.parse(text, file: "a.preset")
        #expect(entries.count == 2)
        #expect(entries[0].name == "Lead" && entries[0].numbers == [0, 1, 4])
        #expect(entries[0].timbre.osc1Wave == .square && entries[0].timbre.filterCutoff == 1200)
        #expect(entries[1].kind == .drum && entries[1].numbers == [36] && entries[1].timbre.fixedNote == 28)
        #expect(entries[1].timbre.ignoresNoteOff, "drums ignore note-off by default")
    }

    @Test(arguments: [
        ("[preset X]\nprograms = 1\nfilter.cutof = 3", 3, "unknown key 'filter.cutof'"),
        ("[preset X]\nprograms = 1\nfilter.cutoff = loud", 3, "is not a number"),
        ("[preset X]\nprograms = 1\namp.sustain = 2", 3, "out of range"),
        ("[preset X]\nprograms = 0-8", 2, "not a number or range from 1 to 128"),
        // Found by FuzzPreset: a lone dash was read past the end of its parts.
        ("[preset X]\nprograms = -", 2, "'-' is not a number or range from 1 to 128"),
        ("[preset X]\nprograms = 3-", 2, "'3-' is not a number or range"),
        ("osc1.level = 1", 1, "before any section"),
        ("[preset X]\nosc1.level = 1", 1, "has no 'programs =' line"),
        ("[voice X]", 1, "unknown section"),
        ("[preset X]\nprograms = 1\nosc1.wave = wobble", 3, "unknown waveform"),
    ])
    func corruptFilesGiveFileLineAndFix(text: String, line: Int, message: String) {
        #expect {
            _ = try PresetParser.parse(text, file: "bad.preset")
        } throws: { error in
            guard let error = error as? PresetError else { return false }
            return error.line == line && error.message.contains(message)
                && error.description.hasPrefix("bad.preset:\(line): ") && error.description.contains("(fix: ")
        }
    }

    @Test func bankRequiresEveryProgramExactlyOnce() {
        #expect(throws: PresetError.self) { try PresetBank(files: [("a.preset", "[preset A]\nprograms = 1-127")]) }
        #expect(throws: PresetError.self) {
            try PresetBank(files: [("a.preset", "[preset A]\nprograms = 1-128"), ("b.preset", "[preset B]\nprograms = 5")])
        }
    }

    @Test func repositoryBankCoversAllProgramsAndTheDrumKit() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../patches/presets").standardized.path
        let bank = try PresetBankLoader.load(directory: folder)
        #expect(bank.programTimbre.allSatisfy { $0 >= 0 })
        for note in [35, 36, 38, 42, 46, 49, 51, 39, 41, 56, 60, 75, 81] {
            #expect(bank.drum(note: note) != nil, "GM drum note \(note)")
        }
        // Each family (8 programs) has at least one preset of its own in the bank.
        #expect(Set(bank.programTimbre).count >= 16)
    }
}
