/// A problem in a preset file: where, what, and how to fix it.
///
/// `description` reads `strings.preset:12: unknown key 'filter.cutof' (fix: …)`.
/// - Thread: any (a plain value).
public struct PresetError: Error, Equatable, CustomStringConvertible {
    /// File name as given to the parser.
    public var file: String
    /// 1-based line, 0 when the problem concerns the bank as a whole.
    public var line: Int
    public var message: String
    public var fix: String

    public init(file: String, line: Int, message: String, fix: String) {
        self.file = file
        self.line = line
        self.message = message
        self.fix = fix
    }

    public var description: String {
        let place = line > 0 ? "\(file):\(line)" : file
        return "\(place): \(message) (fix: \(fix))"
    }
}
