/// A problem found while reading a text sequence: where it is, what is wrong and
/// how to fix it.
///
/// `description` is one line, `12:9: unknown note name 'H4' (fix: use C..B with #
/// or b and an octave, e.g. C#4)`; a caller that knows the file name puts it in
/// front (`song.song:12:9: …`).
///
/// - Thread: any (a plain value).
public struct SequenceTextError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column (in characters) where the offending token starts.
    public var column: Int
    /// What is wrong, e.g. `unknown note name 'H4'`.
    public var reason: String
    /// What to do about it, e.g. `use C..B with # or b and an octave, e.g. C#4`.
    public var fix: String

    public init(line: Int, column: Int, reason: String, fix: String) {
        self.line = line
        self.column = column
        self.reason = reason
        self.fix = fix
    }

    /// One line even when the reason quotes a string with line breaks in it (`onOneLine`).
    public var description: String { "\(line):\(column): \(reason.onOneLine) (fix: \(fix.onOneLine))" }
}
