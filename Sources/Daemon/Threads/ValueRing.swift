import Synchronization

/// A lock-free single-producer/single-consumer ring of any values (strings, enums with
/// payloads), where `RenderCore.SPSCRing` takes plain ones only. A push into a full ring
/// drops the value and counts it; nothing waits. The producer's push may allocate (the value
/// it copies in), so this ring is for the MIDI thread's hand-offs, not the render thread's.
///
/// - Thread: any: `push` on the producer thread, `popAll` on the consumer thread, `count` and
///   `droppedCount` from any thread.
final class ValueRing<Element>: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<Element>
    private let mask: Int
    /// Next slot to read; written only by the consumer.
    private let head = Atomic<Int>(0)
    /// Next slot to write; written only by the producer.
    private let tail = Atomic<Int>(0)
    private let dropped = Atomic<Int>(0)

    /// A ring holding at least `minimumCapacity` values (rounded up to a power of two).
    init(minimumCapacity: Int) {
        var capacity = 2
        while capacity < minimumCapacity { capacity <<= 1 }
        storage = .allocate(capacity: capacity)
        mask = capacity - 1
    }

    deinit {
        var index = head.load(ordering: .relaxed)
        let end = tail.load(ordering: .relaxed)
        while index != end {
            (storage + (index & mask)).deinitialize(count: 1)
            index += 1
        }
        storage.deallocate()
    }

    /// Values waiting (a snapshot).
    var count: Int { tail.load(ordering: .sequentiallyConsistent) - head.load(ordering: .acquiring) }

    /// Values dropped because the ring was full, since it was made.
    var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Appends `value`, or drops and counts it when the ring is full.
    /// - Returns: false when the value was dropped.
    @discardableResult
    func push(_ value: Element) -> Bool {
        let t = tail.load(ordering: .relaxed)
        guard t - head.load(ordering: .acquiring) <= mask else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        (storage + (t & mask)).initialize(to: value)
        tail.store(t + 1, ordering: .sequentiallyConsistent)
        return true
    }

    /// Moves every waiting value out, oldest first, into `into`.
    func popAll(into values: inout [Element]) {
        var h = head.load(ordering: .relaxed)
        let t = tail.load(ordering: .acquiring)
        while h != t {
            values.append((storage + (h & mask)).move())
            h += 1
            head.store(h, ordering: .releasing)
        }
    }
}
