/// Names the text format accepts and writes for controllers and key signatures.
///
/// - Thread: any.
enum SequenceTextNames {
    /// Controller names, written by the renderer and accepted besides numbers.
    static let controllers: [(name: String, number: UInt8)] = [
        ("bank", 0), ("modulation", 1), ("breath", 2), ("foot", 4), ("portamento-time", 5),
        ("data", 6), ("volume", 7), ("balance", 8), ("pan", 10), ("expression", 11),
        ("bank-lsb", 32), ("data-lsb", 38), ("sustain", 64), ("portamento", 65), ("sostenuto", 66),
        ("soft", 67), ("legato", 68), ("resonance", 71), ("release", 72), ("attack", 73),
        ("cutoff", 74), ("reverb", 91), ("chorus", 93), ("nrpn-lsb", 98), ("nrpn-msb", 99),
        ("rpn-lsb", 100), ("rpn-msb", 101), ("all-sound-off", 120), ("reset-controllers", 121),
        ("local-control", 122), ("all-notes-off", 123), ("omni-off", 124), ("omni-on", 125),
        ("mono-on", 126), ("poly-on", 127),
    ]

    static func controller(named name: Substring) -> UInt8? {
        controllers.first { $0.name == name.lowercased() }?.number
    }

    static func controllerName(_ number: UInt8) -> String? {
        controllers.first { $0.number == number }?.name
    }

    /// Tonic names indexed by sharps + 7 (-7 … 7).
    private static let majorTonics = ["Cb", "Gb", "Db", "Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#"]
    private static let minorTonics = ["Ab", "Eb", "Bb", "F", "C", "G", "D", "A", "E", "B", "F#", "C#", "G#", "D#", "A#"]

    /// Sharps (negative: flats) of `tonic` in `mode`, nil when no key signature has that tonic.
    static func sharps(tonic: Substring, minor: Bool) -> Int8? {
        let table = minor ? minorTonics : majorTonics
        guard let first = tonic.first else { return nil }
        let normalized = first.uppercased() + tonic.dropFirst()
        guard let index = table.firstIndex(of: normalized) else { return nil }
        return Int8(index - 7)
    }

    /// `C major`, `F# minor`; nil outside -7…7 sharps.
    static func keyName(sharps: Int8, minor: Bool) -> String? {
        guard (-7...7).contains(sharps) else { return nil }
        let tonic = (minor ? minorTonics : majorTonics)[Int(sharps) + 7]
        return tonic + (minor ? " minor" : " major")
    }
}
