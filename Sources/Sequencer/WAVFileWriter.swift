#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a WAV file could not be written, with the fix.
public struct WAVWriteError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var fix: String

    /// What went wrong, without the fix.
    public var problem: String { "cannot write \(path): \(reason)" }

    public var description: String { "\(problem) (fix: \(fix))" }
}

/// Writes a stereo WAV file safely: audio goes to a temporary file in the same folder; on
/// `finish` the header is patched with the final sizes, the data is synced to disk and the
/// file renamed into place. A failed or abandoned render never leaves a half-written file
/// under the final name (`discard` removes the temporary file).
///
/// - Thread: one thread at a time (the rendering thread).
public struct WAVFileWriter: AudioSink {
    public let path: String
    public let format: WAVSampleFormat
    public let sampleRate: Int
    public let temporaryPath: String
    private var descriptor: Int32
    private var dataBytes: UInt64 = 0
    /// Encoded audio waiting to be written: one `write` per `stagingCapacity` bytes, not per block.
    private let staging: Staging
    private static let stagingCapacity = 1 << 16

    /// Creates the temporary file and reserves the header.
    public init(path: String, format: WAVSampleFormat, sampleRate: Int) throws(WAVWriteError) {
        self.path = path
        self.format = format
        self.sampleRate = sampleRate
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else {
            throw WAVWriteError(path: path, reason: "the path names a folder", fix: "give a file name such as out.wav")
        }
        temporaryPath = (folder.isEmpty ? "" : folder + "/") + ".\(name).\(getpid()).partial"
        staging = Staging(capacity: Self.stagingCapacity)
        // O_EXCL: never through a link someone left at that name (the daemon writes a client's
        // `audio.record` take); a stale partial of an earlier run with the same pid goes first.
        descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EEXIST, unlink(temporaryPath) == 0 {
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw Self.error(path: path, errno: errno) }
        let header = WAVEncoding.header(format: format, sampleRate: sampleRate, dataBytes: 0)
        staging.bytes.copyMemory(from: header, byteCount: header.count)
        staging.count = header.count
    }

    /// The most stereo frames a WAV file of `format` holds (its sizes are 32-bit: 4 GB).
    /// - Thread: any.
    public static func maximumFrames(format: WAVSampleFormat) -> Int64 {
        Int64(maximumDataBytes) / Int64(2 * format.bytesPerSample)
    }

    private static let maximumDataBytes = UInt64(UInt32.max - 64)

    /// - Thread: the rendering thread.
    public mutating func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) throws {
        let frameBytes = 2 * format.bytesPerSample
        dataBytes += UInt64(frames * frameBytes)
        guard dataBytes <= Self.maximumDataBytes else {
            throw WAVWriteError(path: path, reason: "the audio exceeds the 4 GB limit of WAV", fix: "render a shorter file or a lower sample rate")
        }
        var done = 0
        while done < frames {
            if staging.count + frameBytes > staging.capacity { try flush() }
            let n = min(frames - done, (staging.capacity - staging.count) / frameBytes)
            staging.count += WAVEncoding.encode(left: left + done, right: right + done, frames: n, format: format,
                                                to: staging.bytes + staging.count)
            done += n
        }
    }

    private func flush() throws(WAVWriteError) {
        try writeAll(UnsafeRawBufferPointer(start: staging.bytes, count: staging.count))
        staging.count = 0
    }

    /// Patches the header, syncs and renames the file into place.
    public mutating func finish() throws(WAVWriteError) {
        do {
            try flush()
        } catch {
            discard()
            throw error
        }
        let header = WAVEncoding.header(format: format, sampleRate: sampleRate, dataBytes: UInt32(dataBytes))
        let written = header.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == header.count, fsync(descriptor) == 0 else {
            let code = errno
            discard()
            throw Self.error(path: path, errno: code)
        }
        close(descriptor)
        descriptor = -1
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw Self.error(path: path, errno: code)
        }
    }

    /// Closes and removes the temporary file (after an error or an interruption).
    public mutating func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporaryPath)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws(WAVWriteError) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(path: path, errno: errno)
            }
            offset += n
        }
    }

    private static func error(path: String, errno code: Int32) -> WAVWriteError {
        let reason = String(cString: strerror(code))
        let fix: String
        switch code {
        case ENOENT: fix = "create the folder first or choose another path with -o"
        case EACCES, EPERM, EROFS: fix = "choose a folder you can write to with -o"
        case ENOSPC, EDQUOT: fix = "free some disk space or write to another disk"
        case EISDIR: fix = "give a file name such as out.wav"
        default: fix = "check the path given with -o"
        }
        return WAVWriteError(path: path, reason: reason, fix: fix)
    }
}

/// The writer's staging memory: a fixed allocation shared by copies of the writer value.
///
/// - Thread: the rendering thread.
private final class Staging {
    let bytes: UnsafeMutableRawPointer
    let capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        bytes = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { bytes.deallocate() }
}
