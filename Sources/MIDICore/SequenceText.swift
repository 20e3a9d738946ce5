/// The readable text sequence format (`.song` files): hand-written songs with
/// tempo, time signatures, tracks, notes by name at bar:beat positions, controllers
/// and every other SMF event. The grammar is in docs/sequence-format.md.
///
/// `parse(render(file)) == file` for every file the SMF reader produces; the
/// exceptions (values no valid MIDI file holds) are listed in the docs.
///
/// - Thread: any.
public enum SequenceText {
    /// Reads a text sequence. Errors carry the line, column, reason and fix.
    ///
    /// - Thread: any.
    public static func parse(_ text: String) throws(SequenceTextError) -> MIDIFile {
        try SequenceTextParser.parse(text)
    }

    /// Writes `file` as a text sequence that parses back to the same `MIDIFile`.
    ///
    /// - Thread: any.
    public static func render(_ file: MIDIFile) -> String {
        var renderer = SequenceTextRenderer(file: file)
        return renderer.render()
    }
}
