/// One `[preset …]` or `[drum …]` section of a preset file.
///
/// - Thread: any (a plain value).
public struct PresetEntry: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A melodic sound; `numbers` are 0-based program numbers.
        case program
        /// A channel-10 sound; `numbers` are MIDI note numbers.
        case drum
    }

    public var kind: Kind
    public var name: String
    public var numbers: [Int]
    public var timbre: Timbre
    public var file: String
    public var line: Int
}

/// Reads the preset file format (see docs/preset-format.md) from text.
///
/// - Thread: any (pure).
public enum PresetParser {
    /// Parses one file's text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(PresetError) -> [PresetEntry] {
        var entries: [PresetEntry] = []
        var current: PresetEntry?
        var lineNumber = 0
        func fail(_ message: String, _ fix: String) -> PresetError {
            PresetError(file: file, line: lineNumber, message: message, fix: fix)
        }
        func finish() throws(PresetError) {
            guard let entry = current else { return }
            if entry.numbers.isEmpty {
                let key = entry.kind == .program ? "programs" : "notes"
                throw PresetError(file: file, line: entry.line, message: "section '\(entry.name)' has no '\(key) =' line",
                                  fix: "add e.g. '\(key) = \(entry.kind == .program ? "1-8" : "36")'")
            }
            entries.append(entry)
        }

        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.prefix { $0 != "#" }.trimmingSpaces()
            if line.isEmpty { continue }
            if line.hasPrefix("[") {
                try finish()
                current = try parseHeader(line, file: file, line: lineNumber)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail("expected 'key = value' or a '[preset NAME]' header, found '\(line)'",
                           "write one setting per line as 'key = value'")
            }
            let key = line[..<equals].trimmingSpaces()
            let value = line[line.index(after: equals)...].trimmingSpaces()
            guard current != nil else {
                throw fail("'\(key)' appears before any section", "start the file with a '[preset NAME]' or '[drum NAME]' header")
            }
            if key == "programs" || key == "notes" {
                let expected = current!.kind == .program ? "programs" : "notes"
                guard key == expected else {
                    throw fail("'\(key)' in a \(expected == "programs" ? "preset" : "drum") section",
                               "use '\(expected) =' here")
                }
                current!.numbers = try parseNumbers(value, programs: key == "programs", fail: fail)
                continue
            }
            guard let spec = PresetKey.all[key] else {
                let known = PresetKey.all.keys.sorted().joined(separator: ", ")
                throw fail("unknown key '\(key)'", "use one of: programs, notes, \(known)")
            }
            if let problem = spec.apply(value, to: &current!.timbre) {
                throw fail("\(key): \(problem.message)", problem.fix)
            }
        }
        try finish()
        if entries.isEmpty {
            throw PresetError(file: file, line: 0, message: "no sections", fix: "add a '[preset NAME]' section with 'programs =' and settings")
        }
        return entries
    }

    private static func parseHeader(_ line: String, file: String, line lineNumber: Int) throws(PresetError) -> PresetEntry {
        guard line.hasSuffix("]") else {
            throw PresetError(file: file, line: lineNumber, message: "header '\(line)' has no closing ']'", fix: "write '[preset NAME]'")
        }
        let inner = line.dropFirst().dropLast().trimmingSpaces()
        let word = inner.prefix { $0 != " " }
        let name = inner.dropFirst(word.count).trimmingSpaces().trimmingCharacters("\"")
        var timbre = Timbre()
        let kind: PresetEntry.Kind
        switch word {
        case "preset": kind = .program
        case "drum":
            kind = .drum
            timbre.ignoresNoteOff = true
            timbre.ampSustain = 0
        default:
            throw PresetError(file: file, line: lineNumber, message: "unknown section '[\(inner)]'",
                              fix: "use '[preset NAME]' or '[drum NAME]'")
        }
        return PresetEntry(kind: kind, name: name.isEmpty ? String(word) : name, numbers: [], timbre: timbre,
                           file: file, line: lineNumber)
    }

    /// Parses `1-8, 10, 12-13`. Programs are written 1…128 (as in the GM list) and stored
    /// 0-based; notes are 0…127 as is.
    private static func parseNumbers(_ text: String, programs: Bool,
                                     fail: (String, String) -> PresetError) throws(PresetError) -> [Int] {
        let low = programs ? 1 : 0, high = programs ? 128 : 127
        var numbers: [Int] = []
        for part in text.split(separator: ",") {
            let bounds = part.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).trimmingSpaces() }
            guard let first = Int(bounds[0]), let last = bounds.count == 2 ? Int(bounds[1]) : first,
                  low <= first, first <= last, last <= high else {
                throw fail("'\(part.trimmingSpaces())' is not a number or range from \(low) to \(high)",
                           "write numbers or ranges like '\(low)-\(low + 7), \(low + 9)'")
            }
            numbers += (first...last).map { programs ? $0 - 1 : $0 }
        }
        return numbers
    }
}

/// - Thread: any (pure).
extension StringProtocol {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }

    func trimmingCharacters(_ character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
