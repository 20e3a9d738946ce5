import Foundation
import MIDICore
import Sequencer

/// Loads and saves sequences: Standard MIDI Files and the text format (`.song`).
///
/// - Thread: control (blocking file I/O).
enum SequenceFile {
    /// Reads `path`: a Standard MIDI File when it starts with `MThd`, else the text
    /// format. Errors name the path (and line:column for text) and a fix.
    static func load(path: String) throws -> MIDIFile {
        do {
            return try SequenceFileReader.read(path: path)
        } catch {
            throw CLIError(error.problem, fix: error.fix, exitCode: error.isBadInput ? CLIError.badInput : CLIError.runtimeFailure)
        }
    }

    /// The file kinds `save` writes, chosen by the path's extension.
    enum Kind {
        case smf, text

        init(path: String) throws {
            switch URL(fileURLWithPath: path).pathExtension.lowercased() {
            case "mid", "midi", "smf": self = .smf
            case "song": self = .text
            default:
                throw CLIError("cannot tell which format to write for '\(path)'",
                               fix: "end the name with .mid or .midi (Standard MIDI File) or .song (text)",
                               exitCode: CLIError.badInput)
            }
        }
    }

    /// Writes `file` to `path` as SMF (`.mid`, `.midi`) or text (`.song`), atomically:
    /// into a temporary file in the same folder, flushed to disk, then renamed over
    /// `path`, so `path` never holds a half-written file.
    static func save(_ file: MIDIFile, path: String) throws {
        let bytes: [UInt8]
        switch try Kind(path: path) {
        case .smf: bytes = file.smfBytes()
        case .text: bytes = Array(SequenceText.render(file).utf8)
        }
        try writeAtomically(bytes, to: path)
    }

    private static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ioError("cannot create a file in '\(folder)'", fix: "check that the folder exists and is writable") }
        var written = 0
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += count
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        guard failure == 0 else {
            unlink(temporary)
            errno = failure
            throw ioError("cannot write '\(path)'", fix: "check free space and permissions")
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func ioError(_ problem: String, fix: String) -> CLIError {
        CLIError("\(problem): \(String(cString: strerror(errno)))", fix: fix)
    }
}
