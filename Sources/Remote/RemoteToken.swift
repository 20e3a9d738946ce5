import Foundation
import Glibc

/// The secret a browser shows to use the remote: 32 random bytes as 64 hex digits, made the
/// first time the remote starts and kept in a file of mode 0600 beside the daemon's state
/// (`remote-token`), so a bookmarked URL keeps working across restarts. Delete the file to
/// make a new one (the old URLs stop working).
///
/// - Thread: any (a plain value; `loadOrCreate` does blocking I/O).
public struct RemoteToken: Sendable, Equatable {
    /// The 64 hex digits.
    public let text: String

    /// The token file beside a state file: `<folder of statePath>/remote-token`.
    public static func path(besideState statePath: String) -> String {
        (statePath as NSString).deletingLastPathComponent + "/remote-token"
    }

    public init?(text: String) {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ Self.hexDigits.contains($0) }) else { return nil }
        self.text = text
    }

    /// A new random token.
    public static func random() -> RemoteToken {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let digits = bytes.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]] }
        return RemoteToken(text: String(decoding: digits, as: UTF8.self))!
    }

    /// The token in `path`; when there is none, a new one written there (mode 0600, its
    /// folder made as needed). A file that is not private to its owner is made so.
    /// - Throws: `RemoteError.tokenFile` when the file cannot be read or written, or holds
    ///   something else than a token.
    public static func loadOrCreate(at path: String) throws(RemoteError) -> RemoteToken {
        if let token = try read(at: path) { return token }
        let token = random()
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .tokenFile(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let line = Array((token.text + "\n").utf8)
        guard write(fd, line, line.count) == line.count, fsync(fd) == 0 else {
            throw .tokenFile(path: path, reason: String(cString: strerror(errno)))
        }
        return token
    }

    /// The token in `path`, `nil` when the file does not exist.
    /// - Throws: `RemoteError.tokenFile` when it cannot be read or holds no token.
    public static func read(at path: String) throws(RemoteError) -> RemoteToken? {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw .tokenFile(path: path, reason: String(cString: strerror(errno)))
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_size <= 4096,
            let contents = FileManager.default.contents(atPath: path),
            let token = RemoteToken(
                text: String(decoding: contents, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw .tokenFile(path: path, reason: "it holds no token (delete it: a new one is made at the next start)")
        }
        if status.st_mode & 0o077 != 0 { chmod(path, 0o600) }
        return token
    }

    /// Whether `candidate` is this token, in a time that does not depend on where they differ.
    public func matches(_ candidate: some StringProtocol) -> Bool {
        let (mine, theirs) = (Array(text.utf8), Array(candidate.utf8))
        guard mine.count == theirs.count else { return false }
        return zip(mine, theirs).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
