/// Why the daemon's state could not be saved or restored. One line with the fix.
///
/// - Thread: any (a plain value).
public enum StateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system call failed while saving; `step` names it, `code` is the errno value.
    case writeFailed(path: String, step: AtomicFile.Step, code: Int32)
    case unreadable(path: String, code: Int32)
    /// The file exists but does not hold a valid state (truncated, edited, another format).
    case corrupt(path: String, reason: String)

    public var description: String {
        switch self {
        case .writeFailed(let path, let step, let code):
            "cannot save state to \(path): \(step.rawValue) failed: \(AtomicFile.message(code)) "
                + "(fix: check that the directory exists, is writable and the disk is not full)"
        case .unreadable(let path, let code):
            "cannot read state file \(path): \(AtomicFile.message(code)) (fix: check its permissions)"
        case .corrupt(let path, let reason):
            "state file \(path) is not valid: \(reason); starting with defaults "
                + "(fix: delete or move the file away; it is rewritten at the next change)"
        }
    }
}
