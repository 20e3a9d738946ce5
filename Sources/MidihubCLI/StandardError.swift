import Control
import Foundation

/// Writes one line to stderr, unbuffered: control characters escaped, a very long line cut
/// in the middle (`TerminalText`), so what came from a file cannot move the terminal.
/// - Thread: any.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((TerminalText.line(line) + "\n").utf8))
}
