import ArgumentParser

/// `midihub convert IN OUT`: Standard MIDI File ↔ text sequence, by OUT's extension.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert between Standard MIDI Files and the text sequence format.",
        discussion: """
            IN is read as a Standard MIDI File when it starts with MThd, else as text. \
            OUT's extension picks what is written: .mid or .midi for a Standard MIDI \
            File, .song for text (docs/sequence-format.md). OUT is replaced atomically. \
            Converting to text and back gives the same events.

            Examples:
              midihub convert sequences/little-song.song little-song.mid
              midihub convert sequences/expression.mid expression.song
            """
    )

    @Argument(help: "The sequence to read (.mid or text).")
    var input: String

    @Argument(help: "The file to write: .mid/.midi or .song.")
    var output: String

    func run() throws {
        _ = try SequenceFile.Kind(path: output)
        try SequenceFile.save(try SequenceFile.load(path: input), path: output)
    }
}
