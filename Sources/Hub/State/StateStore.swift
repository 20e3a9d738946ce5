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

    /// The saved state, or the defaults with the problem to log (never throws, never crashes).
    public func restore() -> (state: HubState, problem: StateError?) {
        do {
            return (try load() ?? .defaults, nil)
        } catch {
            return (.defaults, error)
        }
    }
}
