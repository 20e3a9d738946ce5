/// A pattern for a client or port name: a glob (`*` any run, `?` one character, `\` escapes)
/// or a regular expression written `/…/` that must match the whole name.
///
/// A pattern of digits only also matches that client or port number (ALSA's `24:0` syntax).
///
/// - Thread: any (a plain value).
public struct NamePattern: Hashable, Sendable, CustomStringConvertible {
    public enum Form: Hashable, Sendable {
        case glob(String)
        case regex(String)
    }

    public let form: Form
    private let compiled: CompiledRegex?

    /// Matches every name.
    public static let any = NamePattern(glob: "*")

    public init(glob: String) {
        form = .glob(glob)
        compiled = nil
    }

    /// - Throws: ``NamePatternError`` when `regex` does not compile, or could take long to
    ///   match (``RegexCost``: nested or more than two open repetitions).
    public init(regex: String) throws(NamePatternError) {
        form = .regex(regex)
        if let problem = RegexCost.problem(in: regex) {
            throw NamePatternError(pattern: regex, reason: problem)
        }
        do {
            compiled = CompiledRegex(try Regex(regex))
        } catch {
            throw NamePatternError(pattern: regex, reason: "\(error)")
        }
    }

    /// Parses `/regex/` or a glob.
    public init(parsing text: String) throws(NamePatternError) {
        if text.count >= 2, text.hasPrefix("/"), text.hasSuffix("/") {
            try self.init(regex: String(text.dropFirst().dropLast()))
        } else {
            self.init(glob: text)
        }
    }

    public var isAny: Bool { form == .glob("*") }

    public var description: String {
        switch form {
        case .glob(let text): text
        case .regex(let text): "/\(text)/"
        }
    }

    /// True when `name` matches, or when the pattern is a number equal to `number`.
    public func matches(_ name: String, number: Int? = nil) -> Bool {
        switch form {
        case .glob(let glob):
            if let number, let wanted = Int(glob), glob.allSatisfy(\.isASCII), wanted == number { return true }
            return Glob.matches(Array(glob), Array(name))
        case .regex:
            return (try? compiled?.regex.wholeMatch(in: name)) != nil
        }
    }

    public static func == (a: NamePattern, b: NamePattern) -> Bool { a.form == b.form }
    public func hash(into hasher: inout Hasher) { hasher.combine(form) }
}

/// A regular expression in a name pattern did not compile.
///
/// - Thread: any (a plain value).
public struct NamePatternError: Error, Hashable, Sendable, CustomStringConvertible {
    public var pattern: String
    public var reason: String

    public var description: String {
        "invalid regular expression /\(pattern)/: \(reason) (fix: correct the expression, or use a glob with * and ?)"
    }
}

/// Holds a compiled `Regex`; immutable after init, so sharing across threads is safe.
/// - Thread: any (immutable).
private final class CompiledRegex: @unchecked Sendable {
    let regex: Regex<AnyRegexOutput>
    init(_ regex: Regex<AnyRegexOutput>) { self.regex = regex }
}

/// - Thread: any (pure).
private enum Glob {
    /// Iterative glob match with single-star backtracking (linear in practice, no recursion).
    static func matches(_ pattern: [Character], _ name: [Character]) -> Bool {
        var p = 0, n = 0
        var starP = -1, starN = 0
        while n < name.count {
            if p < pattern.count {
                let c = pattern[p]
                if c == "*" {
                    starP = p
                    starN = n
                    p += 1
                    continue
                }
                if c == "\\", p + 1 < pattern.count {
                    if pattern[p + 1] == name[n] {
                        p += 2
                        n += 1
                        continue
                    }
                } else if c == "?" || c == name[n] {
                    p += 1
                    n += 1
                    continue
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starN += 1
            n = starN
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
