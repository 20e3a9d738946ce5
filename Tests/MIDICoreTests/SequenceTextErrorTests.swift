import TestSupport
import MIDICore
import Testing

/// Bad input gives one error with line, column, reason and fix; never a crash.
@Suite struct SequenceTextErrorTests {
    private func error(_ text: String) -> SequenceTextError? {
        do {
            _ = try SequenceText.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func unknownNoteNamePointsAtTheToken() throws {
        let found = try #require(error("track\n  1:1     H4 1/4"))
        #expect(found.description == "2:11: unknown note name 'H4' (fix: use C..B with # or b and an octave, e.g. C#4, or a note number 0-127)")
    }

    @Test(arguments: [
        ("track\n  1:1 C4", 2, "has no length"),
        ("track\n  1:5 C4 1/4", 2, "beat 5 is past the end of a bar of 4 beats"),
        ("track\n  1:1:480 C4 1/4", 2, "tick 480 is past the end of the beat"),
        ("ppq 96\ntrack\n  1:1.333 C4 1/4", 3, "falls between ticks"),
        ("track\n  C4 1/4", 2, "'C4' has no position"),
        ("track\n  1:1 kick 1/4", 2, "drum name 'kick' needs channel 10"),
        ("track\n  1:1 cc 128 = 1", 2, "unknown controller '128'"),
        ("track\n  1:1 bend 9000", 2, "pitch bend '9000' is not a whole number from -8192 to 8191"),
        ("track\n  1:1 sysex 7e 7f", 2, "sysex must start with f0"),
        ("track\n  1:1 sysex f0 7g", 2, "'7g' is not hex bytes"),
        ("track\n  1:1 raw 90 3c", 2, "not exactly one complete MIDI message"),
        ("track\n  1:1 marker \"open", 2, "string is not closed"),
        ("time 5/6", 1, "'5/6' is not a time signature"),
        ("key H major", 1, "no key signature for 'H major'"),
        ("tempo fast", 1, "is not a number of beats per minute"),
        ("track\nppq 96", 2, "'ppq' comes after tracks or events"),
        ("track\n  1:1 C4 1/4\n  @0 end", 3, "before its last event"),
        ("track\n  1:1 wobble", 2, "unknown event 'wobble'"),
        ("track\n  1:1 C4 1/4 vel 0", 2, "velocity '0' is not a whole number from 1 to 127"),
        ("smpte 25 40\ntrack\n  1:1 C4 10t", 3, "bar 1 cannot be counted"),
        ("smpte 25 40\ntrack\n  @0 C4 1/4", 3, "needs a ppq division"),
        ("track\n  99999999999999999:1 C4 1/4", 2, "too far"),
        ("track\n  @281474976710656 C4 1/4", 2, "position '@281474976710656' is too far"),
        ("track\n  @281474976710655 C4 1/4", 2, "the note ends past the last tick"),
        ("track\n  1:1 C4 1/4 at 2:1", 2, "two positions"),
        ("track channel 17", 1, "channel '17' is not a whole number from 1 to 16"),
    ] as [(String, Int, String)])
    func badInputNamesTheProblemAndAFix(text: String, line: Int, reason: String) throws {
        let found = try #require(error(text))
        #expect(found.line == line)
        #expect(found.description.contains(reason), "\(found)")
        #expect(found.description.contains("(fix: "))
    }

    /// The fuzzer's find: a string with an escaped line break, quoted back in the error,
    /// broke the line (seed fuzz/corpus/sequence-text/string-with-line-break-in-error.txt).
    @Test func aQuotedLineBreakStaysOnTheErrorsOneLine() throws {
        let found = try #require(error("track\n  1:1 raw f4 7e \"two\\nlines\""))
        #expect(found.description == "2:17: 'two\\nlines' is not hex bytes (fix: write bytes as pairs of hex digits, e.g. f0 7e 7f or f07e7f)")
    }

    @Test func garbageNeverCrashes() throws {
        var random = SeededGenerator(seed: 7)
        let alphabet = Array("ab C#4:1/.@+-=\"\\#\n\ttrackcconffsysex0123456789xu{}")
        for _ in 0..<500 {
            let text = String((0..<Int.random(in: 0...80, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            if let file = try? SequenceText.parse(text) {
                #expect(try SequenceText.parse(SequenceText.render(file)) == file)
            }
        }
    }
}
