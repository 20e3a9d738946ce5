import MIDICore
import UserFiles

/// Reads a sequence file: a Standard MIDI File when it starts with `MThd`, else the text
/// format (`.song`). Shared by the CLI and the daemon's transport.
///
/// - Thread: any (blocking file I/O: never the MIDI path).
public enum SequenceFileReader {
    /// Why a file could not be read, in one line, with the fix.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public var problem: String
        public var fix: String?
        /// True for a file that is there but malformed (exit 2); false for one that cannot be read.
        public var isBadInput: Bool

        public var description: String { fix.map { "\(problem) (fix: \($0))" } ?? problem }
    }

    /// The largest sequence file read: 64 MiB (an hour-long orchestral `.mid` is a few MB).
    public static let sizeLimit = 64 << 20

    /// Names that promise a Standard MIDI File: such a file without `MThd` is a damaged or
    /// mislabelled MIDI file, not text (which would only give a puzzling text error).
    static let midiFileExtensions: Set<String> = ["mid", "midi", "smf", "kar"]

    /// The file at `path`. Errors name the path (and line:column for text).
    public static func read(path: String) throws(Failure) -> MIDIFile {
        let bytes: [UInt8]
        do {
            bytes = try UserFile.read(path, what: "a sequence", limit: sizeLimit)
        } catch {
            throw Failure(problem: error.problem, fix: error.fix, isBadInput: error.isBadInput)
        }
        guard !bytes.isEmpty else {
            throw Failure(problem: "'\(path)' is empty", fix: "give a .mid file or a text sequence (.song)", isBadInput: true)
        }
        if bytes.starts(with: Array("MThd".utf8)) {
            do {
                return try MIDIFile(smf: bytes)
            } catch {
                throw Failure(problem: "\(path): \(error)", fix: nil, isBadInput: true)
            }
        }
        if let dot = path.lastIndex(of: "."), Self.midiFileExtensions.contains(path[path.index(after: dot)...].lowercased()) {
            let start = bytes.prefix(4).map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined(separator: " ")
            throw Failure(problem: "'\(path)' is not a Standard MIDI File: it starts with \(start), not MThd",
                          fix: "give a MIDI file, or a text sequence in a file named .song", isBadInput: true)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Failure(problem: "\(path) is neither a MIDI file (no MThd header) nor UTF-8 text",
                          fix: "give a .mid file or a text sequence saved as UTF-8", isBadInput: true)
        }
        do {
            return try SequenceText.parse(text)
        } catch {
            throw Failure(problem: "\(path):\(error.line):\(error.column): \(error.reason)", fix: error.fix, isBadInput: true)
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
