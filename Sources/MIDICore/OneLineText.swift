public extension String {
    /// The text on one line, for an error that quotes what a user wrote (a patch's folded
    /// scalar, a rule in a hand-edited state file): line breaks are written `\n`, `\r` or
    /// `\u{2028}`, everything else as it is.
    /// - Thread: any.
    var onOneLine: String {
        var result = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}":
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
