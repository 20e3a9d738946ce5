import Foundation

/// Saves and restores ``HubState`` in one JSON file, atomically (see ``AtomicFile``).
///
/// - Thread: control (blocking I/O).
public struct StateStore: Sendable {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_STATE_HOME/midihub/state.json`, else `$HOME/.local/state/midihub/state.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? "/tmp") + "/.local/state"
        return base + "/midihub/state.json"
    }

    /// Writes `state`, creating the directory if needed.
    /// - Throws: ``StateError/writeFailed(path:step:code:)``.
    public func save(_ state: HubState) throws(StateError) {
        try? FileManager.default.createDirectory(atPath: AtomicFile.directory(of: path), withIntermediateDirectories: true)
        try AtomicFile.write(state.encoded(), to: path)
    }

    /// The saved state, or `nil` when none was saved yet.
    /// - Throws: ``StateError`` when the file cannot be read or is not valid.
    public func load() throws(StateError) -> HubState? {
        guard let bytes = try AtomicFile.read(path) else { return nil }
        return try HubState(decoding: bytes, path: path)
    }

    /// The saved state; or, when the file holds no valid state, the defaults with the problem
    /// to log, the file kept beside itself as `PATH.unusable-STAMP` (renamed, so the next save
    /// cannot overwrite it).
    /// - Throws: `StateError` when the hub must not start: the file was written by a newer
    ///   midihub (`newer`), cannot be read (`unreadable`), or is not valid and cannot be moved
    ///   aside (`cannotKeep`) — a save would replace it.
    public func restore(stamp: String) throws(StateError) -> (state: HubState, problem: StateError?) {
        do {
            return (try load() ?? .defaults, nil)
        } catch .corrupt(let path, let reason) {
            let kept = path + ".unusable-" + stamp
            guard rename(path, kept) == 0 else { throw .cannotKeep(path: path, reason: reason, code: errno) }
            return (.defaults, .corruptKept(path: path, reason: reason, keptAt: kept))
        }
    }
}
