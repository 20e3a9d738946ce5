import MIDICore

/// Why the daemon's state could not be saved or restored. One line with the fix.
///
/// - Thread: any (a plain value).
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed while saving; `step` names it, `code` is the errno value.
    case writeFailed(path: String, step: AtomicFile.Step, code: Int32)
    case unreadable(path: String, code: Int32)
    /// The file exists but does not hold a valid state (truncated, edited, another format).
    case corrupt(path: String, reason: String)
    /// The same, kept beside itself as `keptAt` (never overwritten): the hub starts from its defaults.
    case corruptKept(path: String, reason: String, keptAt: String)
    /// Written by a newer midihub: `format` is past the one this one reads.
    case newer(path: String, format: Int, supported: Int)
    /// A file that cannot be used and could not be moved aside either (`code`: errno of the rename).
    case cannotKeep(path: String, reason: String, code: Int32)

    public var description: String {
        switch self {
        case .writeFailed(let path, let step, let code):
            "cannot save state to \(path): \(step.rawValue) failed: \(AtomicFile.message(code)) "
                + "(fix: check that the directory exists, is writable and the disk is not full)"
        case .unreadable(let path, let code):
            "cannot read state file \(path): \(AtomicFile.message(code)) (fix: check its permissions)"
        case .corrupt(let path, let reason):
            "state file \(path.onOneLine) is not valid: \(reason.onOneLine) (fix: correct it, or delete it to start from the defaults)"
        case .corruptKept(let path, let reason, let kept):
            "state file \(path.onOneLine) is not valid: \(reason.onOneLine); kept as \(kept.onOneLine), starting from the defaults "
                + "(fix: correct it and move it back while the daemon is stopped, or delete it)"
        case .newer(let path, let format, let supported):
            "state file \(path) was written by a newer midihub (format \(format); this one reads format \(supported)) "
                + "(fix: run the newer midihub, or start with --state OTHER-FILE)"
        case .cannotKeep(let path, let reason, let code):
            "state file \(path.onOneLine) is not valid (\(reason.onOneLine)) and cannot be moved aside: \(AtomicFile.message(code)) "
                + "(fix: move it away by hand, or start with --state OTHER-FILE)"
        }
    }
}
