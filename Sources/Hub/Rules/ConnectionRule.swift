/// One connection rule: connect (allow) or disallow connections from matching source ports
/// to matching destination ports. In a list of rules the last matching rule wins.
///
/// Text form, one per line: `connect SOURCE -> DESTINATION` or `disallow SOURCE -> DESTINATION`
/// (`allow` is the same as `connect`); `#` starts a comment. See docs/rules.md.
///
/// - Thread: any (a plain value).
public struct ConnectionRule: Hashable, Sendable, CustomStringConvertible {
    public enum Action: String, Hashable, Sendable {
        case connect
        case disallow
    }

    public var action: Action
    /// Matched against ports that send MIDI (output or duplex).
    public var source: PortSelector
    /// Matched against ports that receive MIDI (input or duplex).
    public var destination: PortSelector

    public init(_ action: Action, from source: PortSelector, to destination: PortSelector) {
        self.action = action
        self.source = source
        self.destination = destination
    }

    /// True when this rule speaks about a connection from `source` to `destination`.
    public func matches(source: PortDescriptor, destination: PortDescriptor) -> Bool {
        source.direction.canSend && destination.direction.canReceive
            && self.source.matches(source) && self.destination.matches(destination)
    }

    public var description: String { "\(action.rawValue) \(source) -> \(destination)" }
}

/// A rule line could not be parsed; `line` and `column` are 1-based.
///
/// - Thread: any (a plain value).
public struct RuleSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var reason: String
    public var fix: String

    public var description: String { "\(line):\(column): \(reason) (fix: \(fix))" }
}

extension ConnectionRule {
    /// Parses one rule line (no comment, not blank).
    /// - Throws: ``RuleSyntaxError`` with `line` 1 and the column of the problem.
    /// - Thread: any.
    public init(parsing text: String) throws(RuleSyntaxError) {
        let tokens = RuleTokenizer.tokens(in: text)
        let expected = "write `connect SOURCE -> DESTINATION` or `disallow SOURCE -> DESTINATION`"
        guard let verb = tokens.first else {
            throw RuleSyntaxError(line: 1, column: 1, reason: "empty rule", fix: expected)
        }
        let action: Action
        switch verb.text {
        case "connect", "allow": action = .connect
        case "disallow": action = .disallow
        default:
            throw RuleSyntaxError(line: 1, column: verb.column, reason: "unknown rule verb '\(verb.text)'", fix: expected)
        }
        guard tokens.count == 4, tokens[2].text == "->" else {
            let column = tokens.count > 2 ? tokens[2].column : (tokens.last.map { $0.column + $0.text.count } ?? 1)
            throw RuleSyntaxError(line: 1, column: column,
                                  reason: "a rule needs a source, '->' and a destination", fix: expected)
        }
        self.init(action, from: try Self.selector(tokens[1]), to: try Self.selector(tokens[3]))
    }

    private static func selector(_ token: RuleTokenizer.Token) throws(RuleSyntaxError) -> PortSelector {
        do {
            return try PortSelector(parsing: token.text)
        } catch {
            throw RuleSyntaxError(line: 1, column: token.column + error.offset, reason: error.reason, fix: error.fix)
        }
    }

    /// Parses rule text: one rule per line; blank lines and `#` comments are skipped.
    /// - Throws: ``RuleSyntaxError`` for the first bad line (1-based line and column).
    /// - Thread: any.
    public static func parseList(_ text: String) throws(RuleSyntaxError) -> [ConnectionRule] {
        var rules: [ConnectionRule] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = RuleTokenizer.strippingComment(String(rawLine))
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            do {
                rules.append(try ConnectionRule(parsing: line))
            } catch {
                throw RuleSyntaxError(line: index + 1, column: error.column, reason: error.reason, fix: error.fix)
            }
        }
        return rules
    }

    /// The decision of the last matching rule in `rules`, or `nil` when none matches.
    /// - Thread: any.
    public static func decision(_ rules: [ConnectionRule], source: PortDescriptor,
                                destination: PortDescriptor) -> Action? {
        rules.last { $0.matches(source: source, destination: destination) }?.action
    }
}

/// Splits a rule line into whitespace-separated tokens; quoted text (with `\"`) stays in one token.
/// - Thread: any (pure).
enum RuleTokenizer {
    struct Token: Hashable {
        var text: String
        /// 1-based column of the token's first character.
        var column: Int
    }

    static func tokens(in line: String) -> [Token] {
        var tokens: [Token] = []
        var current = ""
        var start = 0
        var inQuote = false
        var escaping = false
        for (offset, c) in line.enumerated() {
            if !inQuote, c.isWhitespace {
                if !current.isEmpty { tokens.append(Token(text: current, column: start + 1)) }
                current = ""
                continue
            }
            if current.isEmpty { start = offset }
            current.append(c)
            if escaping {
                escaping = false
            } else if inQuote, c == "\\" {
                escaping = true
            } else if c == "\"" {
                inQuote.toggle()
            }
        }
        if !current.isEmpty { tokens.append(Token(text: current, column: start + 1)) }
        return tokens
    }

    /// The line without a `#` comment (a `#` inside quotes is kept).
    static func strippingComment(_ line: String) -> String {
        var inQuote = false
        var escaping = false
        for (offset, c) in line.enumerated() {
            if escaping { escaping = false; continue }
            if inQuote, c == "\\" { escaping = true; continue }
            if c == "\"" { inQuote.toggle() }
            if c == "#", !inQuote { return String(line.prefix(offset)) }
        }
        return line
    }
}
