/// Note names with middle C = C4 = 60 (the common convention; Yamaha calls it C3).
///
/// A name is a letter A…G (either case), up to two accidentals (`#` sharp, `b`
/// flat) and an octave from -1 to 9: `C-1` = 0, `A4` = 69, `Bb3` = 58, `G9` = 127.
///
/// - Thread: any.
enum NoteName {
    private static let letterOffsets: [Character: Int] = ["C": 0, "D": 2, "E": 4, "F": 5, "G": 7, "A": 9, "B": 11]
    private static let sharpNames = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// The note number of `name`, or nil when it is not a note name or is outside 0…127.
    static func number(_ name: Substring) -> UInt8? {
        guard let first = name.first, let offset = letterOffsets[Character(first.uppercased())] else { return nil }
        var rest = name.dropFirst()
        var semitones = offset
        var accidentals = 0
        while let mark = rest.first, mark == "#" || mark == "b", accidentals < 2 {
            semitones += mark == "#" ? 1 : -1
            accidentals += 1
            rest = rest.dropFirst()
        }
        guard let octave = Int(rest), (-1...9).contains(octave) else { return nil }
        let number = (octave + 1) * 12 + semitones
        return (0...127).contains(number) ? UInt8(number) : nil
    }

    /// The name of a note number 0…127, with sharps: 61 → `C#4`.
    static func name(_ number: UInt8) -> String {
        let value = Int(number)
        return sharpNames[value % 12] + String(value / 12 - 1)
    }
}

/// General MIDI percussion key names (channel 10), notes 35…81, e.g. `kick` = 36,
/// `snare` = 38, `hh-closed` = 42.
///
/// - Thread: any.
enum GMDrumName {
    static let names: [String] = [
        "kick-acoustic", "kick", "side-stick", "snare", "clap", "snare-electric",
        "tom-floor-low", "hh-closed", "tom-floor-high", "hh-pedal", "tom-low", "hh-open",
        "tom-low-mid", "tom-high-mid", "crash", "tom-high", "ride", "china",
        "ride-bell", "tambourine", "splash", "cowbell", "crash2", "vibraslap",
        "ride2", "bongo-high", "bongo-low", "conga-mute", "conga-high", "conga-low",
        "timbale-high", "timbale-low", "agogo-high", "agogo-low", "cabasa", "maracas",
        "whistle-short", "whistle-long", "guiro-short", "guiro-long", "claves", "woodblock-high",
        "woodblock-low", "cuica-mute", "cuica-open", "triangle-mute", "triangle-open",
    ]
    static let firstNote: UInt8 = 35

    static func number(_ name: Substring) -> UInt8? {
        guard let index = names.firstIndex(where: { $0 == name.lowercased() }) else { return nil }
        return firstNote + UInt8(index)
    }

    static func name(_ number: UInt8) -> String? {
        guard number >= firstNote, Int(number - firstNote) < names.count else { return nil }
        return names[Int(number - firstNote)]
    }
}
