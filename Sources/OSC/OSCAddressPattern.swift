/// An OSC 1.0 address pattern, as a sender may write an address: `?` any one character,
/// `*` any run of characters, `[abc]`, `[a-z]` and `[!abc]` one character of (or not of) a
/// set, `{foo,bar}` one of a list of strings; none of them matches a `/`. Matching takes at
/// most (pattern length + 1) × (address length + 1) steps per `{}` alternative, and a
/// pattern or an address over `maximumLength` bytes matches nothing: a hostile pattern
/// cannot make it run away.
///
/// - Thread: any (a plain value).
public struct OSCAddressPattern: Hashable, Sendable {
    public let text: String
    private let pattern: [UInt8]

    /// - Thread: any.
    public init(_ text: String) {
        self.text = text
        pattern = Array(text.utf8)
    }

    /// Whether the pattern has none of `?*[]{}`: it matches only the address it spells.
    /// - Thread: any.
    public var isLiteral: Bool { !pattern.contains { Self.special.contains($0) } }

    private static let special: Set<UInt8> = Set("?*[]{}".utf8)

    /// The longest pattern and address matched (the hub's addresses are far shorter).
    public static let maximumLength = 1_024

    /// Whether `address` is one the pattern names.
    /// - Thread: any.
    public func matches(_ address: String) -> Bool {
        let address = Array(address.utf8)
        guard pattern.count <= Self.maximumLength, address.count <= Self.maximumLength else { return false }
        var failed = Set<Int>()  // (pattern index, address index) pairs known not to match
        return match(0, address, 0, &failed)
    }

    private static let slash = UInt8(ascii: "/")

    private func match(_ p: Int, _ address: [UInt8], _ a: Int, _ failed: inout Set<Int>) -> Bool {
        let key = p * (address.count + 1) + a
        if failed.contains(key) { return false }
        let matched = step(p, address, a, &failed)
        if !matched { failed.insert(key) }
        return matched
    }

    private func step(_ p: Int, _ address: [UInt8], _ a: Int, _ failed: inout Set<Int>) -> Bool {
        guard p < pattern.count else { return a == address.count }
        switch pattern[p] {
        case UInt8(ascii: "*"):
            // Any run of characters up to the next '/'.
            var end = a
            while true {
                if match(p + 1, address, end, &failed) { return true }
                guard end < address.count, address[end] != Self.slash else { return false }
                end += 1
            }
        case UInt8(ascii: "?"):
            return a < address.count && address[a] != Self.slash && match(p + 1, address, a + 1, &failed)
        case UInt8(ascii: "["):
            guard let close = pattern[(p + 1)...].firstIndex(of: UInt8(ascii: "]")) else { return literal(p, address, a, &failed) }
            guard a < address.count, address[a] != Self.slash, Self.set(pattern[(p + 1)..<close], contains: address[a]) else {
                return false
            }
            return match(close + 1, address, a + 1, &failed)
        case UInt8(ascii: "{"):
            guard let close = pattern[(p + 1)...].firstIndex(of: UInt8(ascii: "}")) else { return literal(p, address, a, &failed) }
            for choice in pattern[(p + 1)..<close].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                let end = a + choice.count
                if end <= address.count, address[a..<end].elementsEqual(choice), match(close + 1, address, end, &failed) { return true }
            }
            return false
        default:
            return literal(p, address, a, &failed)
        }
    }

    /// The pattern's characters from `p` up to its next special one, matched one for one.
    private func literal(_ p: Int, _ address: [UInt8], _ a: Int, _ failed: inout Set<Int>) -> Bool {
        var (p, a) = (p, a)
        repeat {
            guard a < address.count, address[a] == pattern[p] else { return false }
            p += 1
            a += 1
        } while p < pattern.count && !Self.special.contains(pattern[p])
        return match(p, address, a, &failed)
    }

    /// Whether the character set between `[` and `]` (`abc`, `a-z`, `!…` for its complement) holds `byte`.
    private static func set(_ members: ArraySlice<UInt8>, contains byte: UInt8) -> Bool {
        var members = members
        let negated = members.first == UInt8(ascii: "!")
        if negated { members = members.dropFirst() }
        var found = false
        var index = members.startIndex
        while index < members.endIndex {
            let low = members[index]
            if index + 2 < members.endIndex, members[index + 1] == UInt8(ascii: "-") {
                let high = members[index + 2]
                if min(low, high) <= byte && byte <= max(low, high) { found = true }
                index += 3
            } else {
                if low == byte { found = true }
                index += 1
            }
        }
        return found != negated
    }
}
