/// The sounds of the built-in synth: one timbre for each of the 128 General MIDI programs
/// and an optional timbre for each channel-10 drum note.
///
/// - Thread: any (an immutable value).
public struct PresetBank: Sendable {
    /// Index into `timbres` for each program 0…127.
    public private(set) var programTimbre: [Int]
    /// Index into `timbres` for each drum note 0…127, or -1 when the note is silent.
    public private(set) var drumTimbre: [Int]
    public private(set) var timbres: [Timbre]
    /// Names of the timbres, parallel to `timbres`.
    public private(set) var names: [String]

    /// A bank where every program plays `timbre` and drums play `drums` (note → timbre).
    public init(timbre: Timbre, drums: [Int: Timbre] = [:]) {
        timbres = [timbre]
        names = ["default"]
        programTimbre = Array(repeating: 0, count: 128)
        drumTimbre = Array(repeating: -1, count: 128)
        for (note, drum) in drums.sorted(by: { $0.key < $1.key }) where (0..<128).contains(note) {
            drumTimbre[note] = timbres.count
            timbres.append(drum)
            names.append("drum \(note)")
        }
    }

    /// Builds the bank from preset files (name and text each). Every program 1…128 must be
    /// covered exactly once; a drum note at most once.
    public init(files: [(name: String, text: String)]) throws(PresetError) {
        var entries: [PresetEntry] = []
        for file in files {
            entries += try PresetParser.parse(file.text, file: file.name)
        }
        try self.init(entries: entries)
    }

    /// Builds the bank from parsed entries (see `init(files:)`).
    public init(entries: [PresetEntry]) throws(PresetError) {
        timbres = []
        names = []
        programTimbre = Array(repeating: -1, count: 128)
        drumTimbre = Array(repeating: -1, count: 128)
        var owner: [Int: PresetEntry] = [:]
        for entry in entries {
            let index = timbres.count
            timbres.append(entry.timbre)
            names.append(entry.name)
            for number in entry.numbers {
                let key = entry.kind == .program ? number : 1000 + number
                if let previous = owner[key] {
                    let what = entry.kind == .program ? "program \(number + 1)" : "drum note \(number)"
                    throw PresetError(file: entry.file, line: entry.line,
                                      message: "\(what) is already covered by \(previous.file):\(previous.line)",
                                      fix: "remove it from one of the two sections")
                }
                owner[key] = entry
                if entry.kind == .program { programTimbre[number] = index } else { drumTimbre[number] = index }
            }
        }
        let missing = (0..<128).filter { programTimbre[$0] < 0 }
        if let first = missing.first {
            throw PresetError(file: entries.first?.file ?? "preset bank", line: 0,
                              message: "\(missing.count) program(s) have no preset, first is program \(first + 1)",
                              fix: "add them to a 'programs =' line so all 128 General MIDI programs are covered")
        }
    }

    /// The timbre a program plays (0-based program).
    public func timbre(program: Int) -> Timbre { timbres[programTimbre[program & 127]] }

    /// The timbre a drum note plays, or nil for a silent note.
    public func drum(note: Int) -> Timbre? {
        let index = drumTimbre[note & 127]
        return index < 0 ? nil : timbres[index]
    }
}
