/// A bound on how deeply a patch can nest, checked before the YAML parser sees the text:
/// the parser builds its tree recursively, so a hostile file of a few kilobytes (`[[[[…`,
/// found by FuzzPatch) would overflow the stack. The bound counts characters, not YAML
/// structure, so no quoting can hide nesting from it: every `[` and `{` counts (flow
/// nesting can be no deeper), and the leading spaces, `- ` and `? ` of each line count
/// as indentation (block nesting needs a column per level). Real patches stay far below
/// both limits.
///
/// - Thread: any (pure).
enum PatchNesting {
    /// Most `[` and `{` a patch may hold.
    static let maxBrackets = 1000
    /// Widest indentation a line may have, in columns.
    static let maxIndentation = 256

    /// The 1-based line and column where `text` first goes over a limit, with the reason
    /// and the fix, or `nil`.
    static func firstExcess(in text: String) -> (line: Int, column: Int, reason: String, fix: String)? {
        var line = 1, column = 0, brackets = 0, indenting = true
        for scalar in text.unicodeScalars {
            column += 1
            if scalar == "\n" {
                line += 1
                column = 0
                indenting = true
            } else if indenting && (scalar == " " || scalar == "-" || scalar == "?") {
                if column > maxIndentation {
                    return (line, column, "a line indented more than \(maxIndentation) columns",
                            "a patch nests a few levels; indent each level by two spaces")
                }
            } else {
                indenting = false
                guard scalar == "[" || scalar == "{" else { continue }
                brackets += 1
                if brackets > maxBrackets {
                    return (line, column, "more than \(maxBrackets) [ and { in one patch",
                            "write lists and mappings as indented lines, or split the setup into smaller patches")
                }
            }
        }
        return nil
    }
}
