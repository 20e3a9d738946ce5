import Foundation

/// Writes one line to stderr, unbuffered.
/// - Thread: any.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}
