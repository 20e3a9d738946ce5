/// Musical values: positions, lengths, note names and decimals.
extension SequenceTextCursor {
    static let noteFix = "use C..B with # or b and an octave, e.g. C#4, or a note number 0-127"

    /// True for words written as positions: `@960`, `3:1`, `3:2.5`, `3:2:120`.
    static func isPosition(_ token: SequenceTextToken) -> Bool {
        guard token.kind == .word, let first = token.text.first else { return false }
        return first == "@" || (first.isNumber && token.text.contains(":"))
    }

    /// Parses a position word (see `isPosition`).
    mutating func position() throws(SequenceTextError) -> SequenceTextPosition {
        let fix = "write bar:beat (1:1), bar:beat.fraction (1:2.5), bar:beat:tick (1:2:240) or @tick (@960)"
        let token = try word("position", fix: fix)
        let text = token.text
        if text.hasPrefix("@") {
            guard let whole = UInt64(text.dropFirst()) else { throw error("position '\(text)' is not @ and a tick number", fix: fix, at: token) }
            guard let tick = Tick(exactly: whole) else { throw error("position '\(text)' is too far", fix: "use a tick up to \(Tick.max.whole)", at: token) }
            return .tick(tick)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count), let bar = Int(parts[0]), bar >= 1,
              let beat = Self.decimal(parts[1]), beat.units >= 1
        else { throw error("position '\(text)' is not bar:beat with bar and beat from 1", fix: fix, at: token) }
        var tick = 0
        if parts.count == 3 {
            guard beat.fraction == 0, let ticks = Int(parts[2]), ticks >= 0 else {
                throw error("position '\(text)' has a bad tick part", fix: fix, at: token)
            }
            tick = ticks
        }
        return .barBeat(bar: bar, beat: beat.units, fraction: beat.fraction, scale: beat.scale, tick: tick)
    }

    /// Parses a length word: `1/4`, `3/8`, `1/4.` (dotted), `2b`, `1.5b`, `240t`.
    mutating func length(division: MIDIFile.Division) throws(SequenceTextError) -> SequenceTextLength {
        let fix = "write a fraction of a whole note (1/4, 1/8., 3/8), beats (2b, 1.5b) or ticks (240t)"
        let token = try word("length", fix: fix)
        guard let length = Self.length(token.text) else { throw error("'\(token.text)' is not a length", fix: fix, at: token) }
        if case .smpte = division, !length.isTicks {
            throw error("length '\(token.text)' needs a ppq division", fix: "give SMPTE lengths in ticks, e.g. 240t", at: token)
        }
        return length
    }

    static func isLength(_ token: SequenceTextToken) -> Bool {
        token.kind == .word && length(token.text) != nil
    }

    private static func length(_ text: String) -> SequenceTextLength? {
        if text.hasSuffix("t") { return UInt64(text.dropLast()).flatMap(Tick.init(exactly:)).map { .ticks($0) } }
        if text.hasSuffix("b") {
            guard let beats = decimal(text.dropLast()) else { return nil }
            return .beats(units: beats.units, fraction: beats.fraction, scale: beats.scale)
        }
        var body = Substring(text)
        var dots = 0
        while body.hasSuffix(".") { body = body.dropLast(); dots += 1 }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, dots <= 2, let numerator = Int(parts[0]), let denominator = Int(parts[1]),
              (0...1 << 20).contains(numerator), (1...1 << 20).contains(denominator) else { return nil }
        // A dot adds half the value, two dots add half and a quarter: n/d × (2^(dots+1) − 1) / 2^dots.
        return .wholeNotes(numerator: numerator * ((2 << dots) - 1), denominator: denominator << dots)
    }

    /// `2`, `2.5`, `0.125`: units plus `fraction / scale` (scale a power of ten, ≤ 6 digits).
    static func decimal(_ text: Substring) -> (units: Int, fraction: Int, scale: Int)? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts[0].allSatisfy(\.isASCII), let units = Int(parts[0]), (0...1_000_000_000).contains(units),
              !parts[0].hasPrefix("+") else { return nil }
        guard parts.count == 2 else { return (units, 0, 1) }
        let digits = parts[1]
        guard (1...6).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), let fraction = Int(digits) else { return nil }
        var scale = 1
        for _ in digits { scale *= 10 }
        return (units, fraction, scale)
    }

    /// A note word: name (C#4), number (60), or a GM drum name when `channel` is 10 (index 9).
    func note(_ text: Substring, at token: SequenceTextToken, channel: UInt8) throws(SequenceTextError) -> UInt8 {
        if let number = NoteName.number(text) { return number }
        if text.allSatisfy(\.isNumber) {
            guard let number = UInt8(text), number <= 127 else {
                throw error("note number \(text) is outside 0-127", fix: Self.noteFix, at: token)
            }
            return number
        }
        if let drum = GMDrumName.number(text) {
            guard channel == 9 else {
                throw error("drum name '\(text)' needs channel 10", fix: "add 'ch 10' or put it in a track with channel 10", at: token)
            }
            return drum
        }
        throw error("unknown note name '\(text)'", fix: Self.noteFix, at: token)
    }

    /// A note word's channel-independent check: could `text` be a note, chord or drum?
    static func looksLikeNotes(_ text: String) -> Bool {
        text.split(separator: "+", omittingEmptySubsequences: false).allSatisfy { part in
            NoteName.number(part) != nil || (!part.isEmpty && part.allSatisfy(\.isNumber)) || GMDrumName.number(part) != nil
        }
    }
}
