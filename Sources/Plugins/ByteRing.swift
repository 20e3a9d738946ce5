import Synchronization

/// A lock-free single-producer/single-consumer ring of byte messages, each up to
/// `maximumMessage` bytes: what a plugin's worker and its `run()` hand each other. Neither
/// side blocks or allocates after `init`; a message that does not fit is refused.
///
/// - Thread: any: `write` on the producer thread, `read` on the consumer thread.
final class ByteRing: @unchecked Sendable {
    let maximumMessage: Int
    private let storage: UnsafeMutableRawPointer
    private let capacity: Int
    /// Bytes read and written so far (the positions, modulo `capacity`).
    private let head = Atomic<Int>(0), tail = Atomic<Int>(0)

    /// - Thread: control (allocates).
    init(capacity: Int, maximumMessage: Int) {
        self.capacity = capacity
        self.maximumMessage = maximumMessage
        storage = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { storage.deallocate() }

    /// Appends the message of `count` bytes at `bytes`; false when it is too long or the ring is full.
    /// - Thread: the producer.
    func write(_ bytes: UnsafeRawPointer?, count: Int) -> Bool {
        let written = tail.load(ordering: .relaxed), read = head.load(ordering: .acquiring)
        guard count <= maximumMessage, capacity - (written - read) >= 4 + count else { return false }
        var size = UInt32(count)
        copy(in: &size, count: 4, at: written)
        if let bytes, count > 0 { copy(in: bytes, count: count, at: written + 4) }
        tail.store(written + 4 + count, ordering: .releasing)
        return true
    }

    /// Takes the oldest message into `buffer` (at least `maximumMessage` bytes); its size, or nil when none waits.
    /// - Thread: the consumer.
    func read(into buffer: UnsafeMutableRawPointer) -> Int? {
        let read = head.load(ordering: .relaxed), written = tail.load(ordering: .acquiring)
        guard written - read >= 4 else { return nil }
        var size: UInt32 = 0
        copy(out: &size, count: 4, at: read)
        copy(out: buffer, count: Int(size), at: read + 4)
        head.store(read + 4 + Int(size), ordering: .releasing)
        return Int(size)
    }

    private func copy(in bytes: UnsafeRawPointer, count: Int, at position: Int) {
        let offset = position % capacity, first = min(count, capacity - offset)
        (storage + offset).copyMemory(from: bytes, byteCount: first)
        if first < count { storage.copyMemory(from: bytes + first, byteCount: count - first) }
    }

    private func copy(out bytes: UnsafeMutableRawPointer, count: Int, at position: Int) {
        let offset = position % capacity, first = min(count, capacity - offset)
        bytes.copyMemory(from: storage + offset, byteCount: first)
        if first < count { (bytes + first).copyMemory(from: storage, byteCount: count - first) }
    }
}
