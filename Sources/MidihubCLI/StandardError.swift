import Control
import Foundation

/// Writes one line to stderr, unbuffered: control characters escaped, a very long line cut
/// in the middle (`TerminalText`), so what came from a file cannot move the terminal.
/// - Thread: any.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.line(line) + "\n").utf8))
}

/// Writes one line to stdout at once (no buffer), so a pipe sees it as it happens.
/// - Thread: any.
func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
