/// One token of a text-sequence line: a bare word (`C#4`, `1:2.5`, `=`) or a
/// double-quoted string with its escapes resolved.
struct SequenceTextToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable { case word, string }
    var kind: Kind
    var text: String
    /// 1-based column of the token's first character.
    var column: Int
}

/// Splits lines into tokens. Words are separated by blanks; `=` is always a token
/// of its own; `#` at the start of a token starts a comment that runs to the end
/// of the line (so `C#4` is one word); strings are `"…"` with the escapes
/// `\"`, `\\`, `\n`, `\r`, `\t` and `\u{HEX}`. It reads Unicode scalars, not characters,
/// so a combining mark after a quote or an escape cannot merge with it; columns count
/// scalars.
///
/// - Thread: any.
enum SequenceTextLexer {
    static func tokens(of line: [Unicode.Scalar], lineNumber: Int) throws(SequenceTextError) -> [SequenceTextToken] {
        var tokens: [SequenceTextToken] = []
        var characters = line
        if characters.last == "\r" { characters.removeLast() }
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == " " || character == "\t" {
                index += 1
            } else if character == "#" {
                break
            } else if character == "=" {
                tokens.append(SequenceTextToken(kind: .word, text: "=", column: index + 1))
                index += 1
            } else if character == "\"" {
                tokens.append(try string(in: characters, from: &index, lineNumber: lineNumber))
            } else {
                let start = index
                while index < characters.count, !" \t=\"".unicodeScalars.contains(characters[index]) { index += 1 }
                var word = ""
                word.unicodeScalars.append(contentsOf: characters[start..<index])
                tokens.append(SequenceTextToken(kind: .word, text: word, column: start + 1))
            }
        }
        return tokens
    }

    private static func string(in characters: [Unicode.Scalar], from index: inout Int, lineNumber: Int) throws(SequenceTextError) -> SequenceTextToken {
        let start = index
        var text = ""
        index += 1
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "\"" {
                return SequenceTextToken(kind: .string, text: text, column: start + 1)
            }
            guard character == "\\" else {
                text.unicodeScalars.append(character)
                continue
            }
            guard index < characters.count else { break }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "\"", "\\": text.unicodeScalars.append(escaped)
            case "n": text.append("\n")
            case "r": text.append("\r")
            case "t": text.append("\t")
            case "u":
                guard let scalar = unicodeEscape(in: characters, from: &index) else {
                    throw SequenceTextError(line: lineNumber, column: index - 1,
                                            reason: "malformed \\u escape in string",
                                            fix: "write \\u{HEX} with 1 to 6 hex digits, e.g. \\u{e9}")
                }
                text.unicodeScalars.append(scalar)
            default:
                throw SequenceTextError(line: lineNumber, column: index - 1,
                                        reason: "unknown escape '\\\(escaped)' in string",
                                        fix: "use \\\", \\\\, \\n, \\r, \\t or \\u{HEX}")
            }
        }
        throw SequenceTextError(line: lineNumber, column: start + 1, reason: "string is not closed",
                                fix: "end the string with \" on the same line")
    }

    /// Reads `{HEX}` after `\u`; nil when malformed or not a Unicode scalar.
    private static func unicodeEscape(in characters: [Unicode.Scalar], from index: inout Int) -> Unicode.Scalar? {
        guard index < characters.count, characters[index] == "{" else { return nil }
        guard let close = characters[index...].firstIndex(of: "}") else { return nil }
        var digits = ""
        digits.unicodeScalars.append(contentsOf: characters[(index + 1)..<close])
        index = close + 1
        guard (1...6).contains(digits.count), let value = UInt32(digits, radix: 16) else { return nil }
        return Unicode.Scalar(value)
    }
}
