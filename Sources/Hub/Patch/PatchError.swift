import MIDICore

/// Why a patch was refused: where (`file:line:column`, 1-based; line 0 for the file as a
/// whole: missing, a directory, too large, not text), what and how to fix it.
///
/// - Thread: any (a plain value).
public struct PatchError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var reason: String
    public var fix: String

    public init(file: String, line: Int, column: Int, reason: String, fix: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
        self.fix = fix
    }

    /// One line, also when the reason quotes patch text that spans lines (a folded YAML
    /// scalar): line breaks in it are written as `\n`, `\r` or `\u{2028}`.
    public var description: String { "\(problem) (fix: \(oneLineFix))" }

    /// `file:line:column: reason` (the reason alone, naming the file, for the file as a
    /// whole) on one line, without the fix (the control protocol sends the fix in a field of
    /// its own).
    public var problem: String { line == 0 ? reason.onOneLine : "\(file):\(line):\(column): \(reason.onOneLine)" }

    /// The fix on one line.
    public var oneLineFix: String { fix.onOneLine }
}
