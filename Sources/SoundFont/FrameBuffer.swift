import Glibc

/// 16-bit frames appended into one `malloc` block that grows by doubling: glibc's
/// `realloc` moves a large block by remapping its pages, not by copying, so decoding an SF3
/// font costs its decoded size once, not twice. `SoundFontSampleData.Storage` adopts the
/// block when decoding ends.
///
/// - Thread: one at a time (the control side, while a font is read).
final class FrameBuffer {
    private(set) var base: UnsafeMutablePointer<Int16>?
    private(set) var count = 0
    private var capacity = 0

    deinit { free(base) }

    func append(_ frames: UnsafePointer<Int16>, count added: Int, stride: Int = 1) {
        reserve(count + added)
        for index in 0..<added { base![count + index] = frames[index * stride] }
        count += added
    }

    /// Appends `added` little-endian 16-bit words from `words`, which need not be aligned.
    func append(words: UnsafeRawPointer, count added: Int) {
        reserve(count + added)
        for index in 0..<added {
            base![count + index] = Int16(littleEndian: words.loadUnaligned(fromByteOffset: 2 * index, as: Int16.self))
        }
        count += added
    }

    func appendSilence(_ added: Int) {
        reserve(count + added)
        (base! + count).initialize(repeating: 0, count: added)
        count += added
    }


    /// Hands the block over (the caller frees it); the buffer is empty after.
    func release() -> (base: UnsafeMutableRawPointer?, byteCount: Int) {
        defer { base = nil; count = 0; capacity = 0 }
        return (base.map { UnsafeMutableRawPointer($0) }, count * 2)
    }

    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let grown = max(needed, capacity * 2, 4096)
        guard let moved = realloc(base, grown * 2) else { fatalError("out of memory decoding SoundFont samples") }
        base = moved.assumingMemoryBound(to: Int16.self)
        capacity = grown
    }
}
