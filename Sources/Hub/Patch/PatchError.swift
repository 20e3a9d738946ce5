/// Why a patch was refused: where (`file:line:column`, 1-based), what and how to fix it.
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

    public var description: String { "\(file):\(line):\(column): \(reason) (fix: \(fix))" }
}
