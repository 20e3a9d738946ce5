internal import CMappedFile
import Glibc
import UserFiles

/// The font's 16-bit sample frames, where they lie: in a read-only mapping of the file
/// (pages are read from disk as they are touched, so memory goes only to what plays; a
/// file that shrinks under it reads as silence past its new end, see `fileChanged`), in
/// a copy of the bytes, or decoded from an SF3 font's Vorbis streams.
///
/// - Thread: any; `frame(at:)` is render-safe (no allocation, no lock).
public struct SoundFontSampleData: Sendable {
    let storage: Storage
    let byteOffset: Int
    /// Where the `sm24` chunk's bytes start (each frame's low 8 of 24 bits), for a font with one.
    let lowByteOffset: Int?
    public let frameCount: Int

    init(storage: Storage, byteOffset: Int, lowByteOffset: Int? = nil, frameCount: Int) {
        self.storage = storage
        self.byteOffset = byteOffset
        self.lowByteOffset = lowByteOffset
        self.frameCount = frameCount
    }

    /// Whether the frames have 24 bits (an `sm24` chunk), not 16.
    public var has24Bits: Bool { lowByteOffset != nil }

    /// Whether the file under the mapping shrank or went while it was read: what was cut
    /// off reads as silence from then on, and the process lives (`Storage.map`).
    /// - Thread: any (render-safe: one atomic load).
    public var fileChanged: Bool { storage.fileChanged }

    /// For a font that plays live: reads its file once into the kernel's page cache on a
    /// thread of its own, so the render thread's first read of each sample finds its page
    /// in memory (a minor fault, never a disk read). The pages stay the kernel's cache, not
    /// this process's memory: the resident set grows only with what plays. Nothing for a
    /// font read from memory or decoded (SF3).
    /// - Thread: control (starts a thread; returns at once).
    public func warmPageCache() { storage.warmPageCache() }

    /// Frame `index` as a value in -1…1. `index` must be below `frameCount`.
    @inline(__always)
    public func frame(at index: Int) -> Float { frames[index] }

    /// A view of the frames for the render thread: a plain pointer, valid while this
    /// value (or the font holding it) lives.
    public var frames: SoundFontFrames {
        SoundFontFrames(words: storage.base.advanced(by: byteOffset),
                        lowBytes: lowByteOffset.map { storage.base.advanced(by: $0) }, count: frameCount)
    }

    /// The memory that holds the file's bytes, alive as long as any font value uses it.
    /// `@unchecked Sendable`: the bytes are never written after the font is read.
    final class Storage: @unchecked Sendable {
        let base: UnsafeRawPointer
        let count: Int
        private let release: Release
        /// The file a mapping maps.
        private let path: String?

        /// How the memory goes back when the last font using it is gone; a mapping's guard
        /// against the file shrinking under it.
        private enum Release { case unmap(guard: Int32), deallocate, free }

        private init(base: UnsafeRawPointer, count: Int, release: Release, path: String? = nil) {
            self.base = base
            self.count = count
            self.release = release
            self.path = path
        }

        /// `SoundFontSampleData.warmPageCache`.
        func warmPageCache() {
            guard case .unmap = release, let path else { return }
            _ = midihub_warm_page_cache(path)
        }

        /// Whether a read past the end of a file that shrank under the mapping was turned
        /// into zeros (`midihub_guard_mapping`).
        var fileChanged: Bool {
            guard case .unmap(let mappingGuard) = release else { return false }
            return midihub_mapping_damaged(mappingGuard) != 0
        }

        deinit {
            switch release {
            case .unmap(let mappingGuard):
                midihub_unguard_mapping(mappingGuard)
                munmap(UnsafeMutableRawPointer(mutating: base), count)
            case .deallocate: base.deallocate()
            case .free: Glibc.free(UnsafeMutableRawPointer(mutating: base))
            }
        }

        /// The block of decoded frames (an SF3 font's samples), adopted without a copy.
        static func adopting(_ frames: FrameBuffer) -> Storage {
            let (block, byteCount) = frames.release()
            guard let block else { return copy(UnsafeRawBufferPointer(start: nil, count: 0)) }
            return Storage(base: UnsafeRawPointer(block), count: byteCount, release: .free)
        }

        /// A copy of `bytes` (a font read from memory).
        static func copy(_ bytes: UnsafeRawBufferPointer) -> Storage {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
            if let source = bytes.baseAddress { memory.copyMemory(from: source, byteCount: bytes.count) }
            return Storage(base: UnsafeRawPointer(memory), count: bytes.count, release: .deallocate)
        }

        static func map(_ path: String, name: String) throws(SoundFontError) -> Storage {
            func failure(_ what: String) -> SoundFontError {
                SoundFontError(file: name, chunk: "file", offset: 0, problem: "cannot \(what) '\(path)': \(String(cString: strerror(errno)))",
                               fix: "check the path and that you may read the file")
            }
            let fd: Int32, size: Int
            do {
                (fd, size) = try UserFile.open(path, what: "a SoundFont", limit: SoundFont.sizeLimit)
            } catch {
                throw SoundFontError(file: name, chunk: error.isBadInput ? "path" : "file", offset: 0, problem: error.problem,
                                     fix: error.fix)
            }
            defer { close(fd) }
            guard size > 0 else {
                throw SoundFontError(file: name, chunk: "RIFF", offset: 0, problem: "the file is empty", fix: "give a .sf2 file")
            }
            guard let memory = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), memory != MAP_FAILED else { throw failure("map") }
            // Replaced in place or truncated while it plays, the file would raise SIGBUS at
            // the first read past its new end: guarded, that reads silence instead.
            return Storage(base: UnsafeRawPointer(memory), count: size, release: .unmap(guard: midihub_guard_mapping(memory, size)),
                           path: path)
        }

        func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws(SoundFontError) -> Result) throws(SoundFontError) -> Result {
            try body(UnsafeRawBufferPointer(start: base, count: count))
        }
    }
}

/// The font's sample frames as the render thread reads them: no reference counting, no
/// bounds check (voices keep their positions inside a sample's checked `start..<end`).
///
/// - Thread: any; render-safe. Valid while the `SoundFont` it came from lives.
public struct SoundFontFrames: @unchecked Sendable {
    /// The 16-bit little-endian words of the `smpl` chunk.
    @usableFromInline let words: UnsafeRawPointer
    /// The `sm24` chunk's bytes, one a frame below its word (24 bits in all), if the font has them.
    @usableFromInline let lowBytes: UnsafeRawPointer?
    public let count: Int

    /// Whether the frames have 24 bits (`lowBytes`), not 16.
    @inlinable public var has24Bits: Bool { lowBytes != nil }

    /// Frame `index` (below `count`) as a value in -1…1.
    @inlinable @inline(__always)
    public subscript(index: Int) -> Float {
        let word = Int32(Int16(littleEndian: words.loadUnaligned(fromByteOffset: 2 &* index, as: Int16.self)))
        guard let lowBytes else { return Float(word) * (1 / 32768) }
        return Float(word << 8 | Int32(lowBytes.load(fromByteOffset: index, as: UInt8.self))) * (1 / 8_388_608)
    }
}
