/// Keeps a name pattern's regular expression cheap to match. Swift's `Regex` backtracks, so
/// `/(a+)+$/` takes time exponential in the name's length, and rules are matched on the MIDI
/// input thread whenever ports come and go. A pattern is accepted only when no repetition is
/// nested inside another and at most `maximumOpenRepetitions` repetitions have no upper
/// bound (`*`, `+`, `{n,}`): matching then takes at most about n² steps for a name of n
/// characters (port names are at most a few hundred).
///
/// - Thread: any (a plain value).
enum RegexCost {
    static let maximumOpenRepetitions = 2
    static let maximumLength = 256

    /// Why `pattern` could be slow to match, or `nil` when it is cheap.
    static func problem(in pattern: String) -> String? {
        guard pattern.count <= maximumLength else {
            return "longer than \(maximumLength) characters"
        }
        let characters = Array(pattern)
        var open = 0
        /// For each group entered and not yet closed: whether it holds a repetition.
        var groups: [Bool] = []
        var index = 0
        var inClass = false
        while index < characters.count {
            let character = characters[index]
            index += 1
            if character == "\\" {
                index += 1  // an escaped character is a literal
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                continue
            }
            switch character {
            case "[":
                inClass = true
            case "(":
                groups.append(false)
            case ")":
                let heldRepetition = groups.popLast() ?? false
                if let (unbounded, length) = repetition(at: index, in: characters) {
                    if heldRepetition { return "a repetition inside a repeated group, like (a+)+, can take exponential time" }
                    if unbounded { open += 1 }
                    markRepetition(&groups)
                    index += length
                } else if heldRepetition {
                    markRepetition(&groups)
                }
            case "*", "+", "?", "{":
                if let (unbounded, length) = repetition(at: index - 1, in: characters) {
                    if unbounded { open += 1 }
                    markRepetition(&groups)
                    index = index - 1 + length
                }
            default:
                continue
            }
            if open > maximumOpenRepetitions {
                return "more than \(maximumOpenRepetitions) open repetitions (*, + or {n,}) make matching slow"
            }
        }
        return nil
    }

    /// The repetition operator at `index`, if any: whether it has no upper bound, and its length
    /// (a lazy or possessive suffix included).
    private static func repetition(at index: Int, in characters: [Character]) -> (unbounded: Bool, length: Int)? {
        guard index < characters.count else { return nil }
        var length = 1
        let unbounded: Bool
        switch characters[index] {
        case "*", "+": unbounded = true
        case "?": unbounded = false
        case "{":
            guard let close = characters[index...].firstIndex(of: "}") else { return nil }
            let inside = String(characters[(index + 1)..<close])
            guard !inside.isEmpty, inside.allSatisfy({ $0.isNumber || $0 == "," }) else { return nil }
            unbounded = inside.hasSuffix(",")
            length = close - index + 1
        default: return nil
        }
        if index + length < characters.count, "?+".contains(characters[index + length]) { length += 1 }
        return (unbounded, length)
    }

    private static func markRepetition(_ groups: inout [Bool]) {
        if !groups.isEmpty { groups[groups.count - 1] = true }
    }
}
