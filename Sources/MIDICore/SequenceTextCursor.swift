/// Walks the tokens of one line and turns them into values, with errors that point
/// at the offending token.
///
/// - Thread: any.
struct SequenceTextCursor {
    let line: Int
    private let tokens: [SequenceTextToken]
    private let endColumn: Int
    private(set) var index = 0

    init(tokens: [SequenceTextToken], line: Int, lineLength: Int) {
        self.tokens = tokens
        self.line = line
        endColumn = lineLength + 1
    }

    var isAtEnd: Bool { index >= tokens.count }
    var peek: SequenceTextToken? { isAtEnd ? nil : tokens[index] }
    /// Column of the next token, or just past the line's end.
    var column: Int { peek?.column ?? endColumn }

    mutating func next() -> SequenceTextToken? {
        defer { if !isAtEnd { index += 1 } }
        return peek
    }

    /// Consumes the next token when it is the word `word`.
    mutating func skip(_ word: String) -> Bool {
        guard let token = peek, token.kind == .word, token.text == word else { return false }
        index += 1
        return true
    }

    func error(_ reason: String, fix: String, at token: SequenceTextToken? = nil) -> SequenceTextError {
        SequenceTextError(line: line, column: token?.column ?? column, reason: reason, fix: fix)
    }

    /// The next token, which must be a bare word; `what` names it in the error.
    mutating func word(_ what: String, fix: String) throws(SequenceTextError) -> SequenceTextToken {
        guard let token = peek else { throw error("missing \(what)", fix: fix) }
        guard token.kind == .word else { throw error("expected \(what), found a string", fix: fix, at: token) }
        index += 1
        return token
    }

    /// The next token, which must be a quoted string.
    mutating func string(_ what: String) throws(SequenceTextError) -> String {
        let fix = "write the \(what) in double quotes, e.g. \"Intro\""
        guard let token = peek else { throw error("missing \(what)", fix: fix) }
        guard token.kind == .string else { throw error("expected a quoted \(what), found '\(token.text)'", fix: fix, at: token) }
        index += 1
        return token.text
    }

    /// The next word as an integer in `range` (decimal, or hex with `0x`).
    mutating func integer(_ what: String, in range: ClosedRange<Int>) throws(SequenceTextError) -> Int {
        let fix = "give a whole number from \(range.lowerBound) to \(range.upperBound)"
        let token = try word(what, fix: fix)
        guard let value = Self.integer(token.text), range.contains(value) else {
            throw error("\(what) '\(token.text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)", fix: fix, at: token)
        }
        return value
    }

    /// Parses `123`, `+5`, `-8192` or `0x7f`.
    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        return Int(text)
    }

    /// Words up to the line's end (or a trailing `at POS`) as hex bytes: `f0 7e 7f`,
    /// or joined `f07e7f`.
    mutating func hexBytes() throws(SequenceTextError) -> [UInt8] {
        var bytes: [UInt8] = []
        while let token = peek, token.text != "at" || token.kind == .string {
            let text = token.text
            guard token.kind == .word, text.count.isMultiple(of: 2), text.allSatisfy(\.isHexDigit) else {
                throw error("'\(text)' is not hex bytes", fix: "write bytes as pairs of hex digits, e.g. f0 7e 7f or f07e7f", at: token)
            }
            var characters = Substring(text)
            while !characters.isEmpty {
                bytes.append(UInt8(characters.prefix(2), radix: 16)!)
                characters = characters.dropFirst(2)
            }
            index += 1
        }
        return bytes
    }

    /// Fails when tokens are left over.
    func expectEnd(after what: String) throws(SequenceTextError) {
        guard let token = peek else { return }
        throw error("unexpected '\(token.text)' after \(what)", fix: "remove it, or start a new line for a new statement", at: token)
    }
}
