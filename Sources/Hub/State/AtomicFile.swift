import Glibc
import UserFiles

/// Replaces a file atomically: write `PATH.tmp` in the same directory, fsync it, rename it over
/// `PATH`, fsync the directory. A crash (even `kill -9`) at any moment leaves `PATH` holding either
/// the old or the new complete contents; a stale `PATH.tmp` is overwritten by the next save.
/// One writer per path.
/// - Thread: control (blocking file I/O: the state writer's queue, workers).
public enum AtomicFile {
    /// The system call that failed.
    /// - Thread: any (a plain value).
    public enum Step: String, Hashable, Sendable {
        case open, write, fsync, close, rename
        case openDirectory = "open directory"
        case fsyncDirectory = "fsync directory"
    }

    /// Writes `bytes` to `path` atomically.
    /// - Throws: ``StateError/writeFailed(path:step:code:)``.
    /// - Thread: control (blocking I/O).
    public static func write(_ bytes: [UInt8], to path: String) throws(StateError) {
        let directory = Self.directory(of: path)
        let failure: (Step, Int32)? = bytes.withUnsafeBytes { buffer in
            path.withCString { target in
                (path + ".tmp").withCString { temporary in
                    directory.withCString { dir in write(buffer, target: target, temporary: temporary, directory: dir) }
                }
            }
        }
        if let (step, code) = failure { throw .writeFailed(path: path, step: step, code: code) }
    }

    /// The system-call-only core: no allocation, so it is also safe in a forked child.
    /// Returns the failing step and errno, or `nil` on success.
    static func write(_ bytes: UnsafeRawBufferPointer, target: UnsafePointer<CChar>, temporary: UnsafePointer<CChar>,
                      directory: UnsafePointer<CChar>) -> (Step, Int32)? {
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return (.open, errno) }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                return (.write, code)
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            return (.fsync, code)
        }
        guard close(fd) == 0 else { return (.close, errno) }
        guard rename(temporary, target) == 0 else { return (.rename, errno) }
        let dirFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dirFD >= 0 else { return (.openDirectory, errno) }
        defer { close(dirFD) }
        guard fsync(dirFD) == 0 else { return (.fsyncDirectory, errno) }
        return nil
    }

    /// The largest state file read: 64 MiB (a big setup's state is under 1 MB).
    public static let sizeLimit = 64 << 20

    /// Reads the whole file; `nil` when it does not exist.
    /// - Throws: ``StateError/unreadable(path:code:)``; ``StateError/corrupt(path:reason:)`` for a
    ///   directory, a FIFO or a device, or a file past `sizeLimit`.
    /// - Thread: control (blocking I/O).
    public static func read(_ path: String) throws(StateError) -> [UInt8]? {
        do {
            return try UserFile.read(path, what: "a state", limit: sizeLimit)
        } catch {
            switch error.kind {
            case .missing: return nil
            case .unreadable(let code): throw .unreadable(path: path, code: code)
            case .notRegular, .tooLarge: throw .corrupt(path: path, reason: error.problem)
            }
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
