import Yams

/// `processor:` nodes and their structural keys (`zones`, `intervals`, `map`).
/// - Thread: any (a plain value).
extension PatchReader {
    static func extraKeys(_ config: ProcessorConfig) -> [String] {
        switch config {
        case .keyZones: ["zones"]
        case .chord: ["intervals"]
        case .controllerMap: ["map"]
        case .transpose, .channelMap, .velocityCurve, .arpeggiator: []
        }
    }

    func processor(_ value: YAMLNode, _ fields: YAMLNode.Mapping) throws(PatchError) -> ProcessorConfig {
        let name = try string(value, "a processor type")
        switch name {
        case "transpose": return .transpose
        case "channels": return .channelMap
        case "velocity": return .velocityCurve
        case "arpeggiator": return .arpeggiator
        case "zones":
            guard let list = fields["zones"] else {
                throw error(at: value, "a zones processor needs `zones`", fix: "add `zones: [{low: C-1, high: B3, channel: 1}, …]`")
            }
            var zones: [KeyZone] = []
            for item in try sequence(list, "zones") { zones.append(try zone(item)) }
            guard !zones.isEmpty else { throw error(at: list, "`zones` is empty", fix: "list at least one zone") }
            return .keyZones(zones)
        case "chord":
            guard let list = fields["intervals"] else {
                throw error(at: value, "a chord processor needs `intervals`", fix: "add `intervals: [4, 7]` (semitones)")
            }
            var intervals: [Int] = []
            for item in try sequence(list, "intervals") { intervals.append(try integer(item, in: -24...24, "an interval")) }
            guard intervals.count <= ChordGenerator.slots else {
                throw error(at: list, "a chord has at most \(ChordGenerator.slots) intervals", fix: "remove some intervals")
            }
            return .chord(intervals: intervals)
        case "controllers":
            var routes: [ControllerMap.Route] = []
            if let map = fields["map"] {
                for (from, to) in try mapping(map, "map") {
                    let source = try integer(from, in: 0...127, "a controller number")
                    let target: Int? = to.scalar?.string == "drop" ? nil : try integer(to, in: 0...127, "a controller number")
                    routes.append(ControllerMap.Route(from: UInt8(source), to: target.map(UInt8.init)))
                }
            }
            return .controllerMap(routes)
        default:
            throw error(at: value, "unknown processor '\(name)'", fix: "use one of \(ProcessorConfig.typeNames.joined(separator: ", "))")
        }
    }

    private func zone(_ item: YAMLNode) throws(PatchError) -> KeyZone {
        let fields = try mapping(item, "a zone")
        try expectKeys(fields, ["low", "high", "channel", "transpose"])
        let low = try fields["low"].map { node throws(PatchError) in try note(node) } ?? 0
        let high = try fields["high"].map { node throws(PatchError) in try note(node) } ?? 127
        guard low <= high else {
            throw error(at: item, "zone low \(low) is above high \(high)", fix: "swap low and high")
        }
        let channel = try fields["channel"].map { node throws(PatchError) in try integer(node, in: 1...16, "a channel") } ?? 0
        let transpose = try fields["transpose"].map { node throws(PatchError) in try integer(node, in: -48...48, "a transpose") } ?? 0
        return KeyZone(low: low, high: high, channel: channel, transpose: transpose)
    }

    /// A note number 0…127 or a name like `C4` (= 60), `F#3`, `Bb-1`.
    func note(_ node: YAMLNode) throws(PatchError) -> UInt8 {
        let text = try string(node, "a note")
        if let number = Int(text) {
            guard let note = UInt8.midiData(number) else {
                throw error(at: node, "note \(number) is outside 0…127", fix: "write a note from 0 to 127 or a name like C4")
            }
            return note
        }
        guard let note = NoteName.number(text) else {
            throw error(at: node, "'\(text)' is not a note", fix: "write a number 0…127 or a name like C4, F#3, Bb-1 (C4 = 60)")
        }
        return note
    }
}

/// Note names with octave numbers, C4 = 60 (so C-1 = 0, G9 = 127).
/// - Thread: any (pure).
enum NoteName {
    private static let steps: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]

    static func number(_ text: String) -> UInt8? {
        var rest = Substring(text)
        guard let letter = rest.first.flatMap({ steps[Character($0.uppercased())] }) else { return nil }
        rest = rest.dropFirst()
        var accidental = 0
        if rest.first == "#" { accidental = 1; rest = rest.dropFirst() }
        else if rest.first == "b" { accidental = -1; rest = rest.dropFirst() }
        // Octaves -1…9 hold MIDI's notes; a bound first keeps the arithmetic from overflowing.
        guard let octave = Int(rest), (-1...9).contains(octave) else { return nil }
        return UInt8.midiData((octave + 1) * 12 + letter + accidental)
    }
}
