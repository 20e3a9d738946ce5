import Control
import Testing

/// What errors and log lines quote from files and peers cannot move a terminal or flood it.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreEscapedAndTheRestKept() {
        #expect(TerminalText.line("a\u{1B}[31mred\u{07}\u{00}\t\n\r\u{7F}\u{1F}\u{9B}é♪")
            == #"a\e[31mred\a\0\t\n\r\x7F\x1F\x9Bé♪"#)
        #expect(TerminalText.line("plain (fix: nothing)") == "plain (fix: nothing)")
    }

    @Test func aLongLineKeepsItsStartAndItsEnd() {
        let line = "midihub: bad token '" + String(repeating: "x", count: 100_000) + "' (fix: remove it)"
        let cut = TerminalText.line(line, limit: 600)
        #expect(cut.count == 599)
        #expect(cut.hasPrefix("midihub: bad token 'xxx") && cut.hasSuffix("' (fix: remove it)") && cut.contains("…"))
    }
}
