#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the files a user names — sequences, patches, presets, SoundFonts, the state file —
/// the one way: a regular file within a size limit, or one line saying what the path is and
/// what to do. A directory, a FIFO (which would block the reader for ever), a device or a
/// socket is refused before a byte is read; so is a file past its kind's limit.
///
/// - Thread: any (blocking file I/O: never the MIDI path or the render thread).
public enum UserFile {
    /// The whole file at `path`, `what` it is for the messages ("a sequence").
    /// - Throws: `UserFileProblem`.
    public static func read(_ path: String, what: String, limit: Int) throws(UserFileProblem) -> [UInt8] {
        let (descriptor, size) = try open(path, what: what, limit: limit)
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + done, size - done) }
            if count < 0 {
                if errno == EINTR { continue }
                throw UserFileProblem(path: path, what: what, kind: .unreadable(code: errno))
            }
            if count == 0 { break }  // it shrank meanwhile: what is there
            done += count
        }
        return Array(bytes[..<done])
    }

    /// The file at `path` opened for reading (blocking), and its size; the caller closes it.
    /// - Throws: `UserFileProblem`.
    public static func open(_ path: String, what: String, limit: Int) throws(UserFileProblem) -> (descriptor: Int32, size: Int) {
        // O_NONBLOCK: opening a FIFO nobody writes would wait for ever; it is refused below.
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw UserFileProblem(path: path, what: what, kind: errno == ENOENT ? .missing : .unreadable(code: errno))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw UserFileProblem(path: path, what: what, kind: .unreadable(code: code))
        }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(descriptor)
            let name = switch type {
            case S_IFDIR: "a directory"
            case S_IFIFO: "a FIFO"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw UserFileProblem(path: path, what: what, kind: .notRegular(name))
        }
        let size = Int(status.st_size)
        guard size <= limit else {
            close(descriptor)
            throw UserFileProblem(path: path, what: what, kind: .tooLarge(size: size, limit: limit))
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, size)
    }
}

/// Why a user's file was not read: one line with the fix.
///
/// - Thread: any (a plain value).
public struct UserFileProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        case missing
        /// A directory, a FIFO, a device, a socket.
        case notRegular(String)
        case tooLarge(size: Int, limit: Int)
        /// `open`, `fstat` or `read` failed with `code` (errno).
        case unreadable(code: Int32)
    }

    public var path: String
    /// What the file was to be ("a sequence").
    public var what: String
    public var kind: Kind

    public init(path: String, what: String, kind: Kind) {
        self.path = path
        self.what = what
        self.kind = kind
    }

    /// Bad input (exit 2) but for a file that is there and cannot be read (exit 1).
    public var isBadInput: Bool {
        if case .unreadable = kind { false } else { true }
    }

    public var problem: String {
        switch kind {
        case .missing: "no file '\(path)'"
        case .notRegular(let name): "'\(path)' is \(name), not \(what) file"
        case .tooLarge(let size, let limit):
            "'\(path)' is \(Self.megabytes(size)), past the \(Self.megabytes(limit)) \(what) file may have"
        case .unreadable(let code): "cannot read '\(path)': \(String(cString: strerror(code)))"
        }
    }

    public var fix: String {
        switch kind {
        case .missing: "check the path"
        case .notRegular: "give the path of \(what) file"
        case .tooLarge: "is it the right file? split it, or give a smaller one"
        case .unreadable: "check the file's permissions"
        }
    }

    public var description: String { "\(problem) (fix: \(fix))" }

    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10) >> 30
        return bytes >= 1 << 30 ? "\(tenths / 10).\(tenths % 10) GiB" : "\(max(bytes >> 20, 1)) MiB"
    }
}
