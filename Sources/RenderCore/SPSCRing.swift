import Synchronization

/// A lock-free single-producer/single-consumer ring of plain values.
///
/// One thread pushes, one thread pops. A push into a full ring drops the value and
/// counts it (`droppedCount`); nothing ever blocks or allocates after `init`. The producer
/// can also `stage` values and `publish` them together: the consumer sees all of them or
/// none (events that arrived together land in the same block).
///
/// - Thread: any: `push`, `stage`, `publish` on the producer thread, `pop`/`popAll` on the
///   consumer thread, counters from any thread.
public final class SPSCRing<Element: BitwiseCopyable>: @unchecked Sendable {
    @usableFromInline let storage: UnsafeMutablePointer<Element>
    @usableFromInline let mask: Int
    /// Next slot to read; written only by the consumer.
    @usableFromInline let head = Atomic<Int>(0)
    /// Next slot to write; written only by the producer.
    @usableFromInline let tail = Atomic<Int>(0)
    /// Next slot to write, staged values included (≥ `tail`); only the producer touches it.
    @usableFromInline var written = 0
    @usableFromInline let dropped = Atomic<Int>(0)

    /// Creates a ring holding at least `minimumCapacity` values (rounded up to a power of two).
    /// - Thread: control (allocates).
    public init(minimumCapacity: Int) {
        var capacity = 2
        while capacity < minimumCapacity { capacity <<= 1 }
        storage = .allocate(capacity: capacity)
        mask = capacity - 1
    }

    deinit { storage.deallocate() }

    /// How many values the ring holds.
    /// - Thread: any.
    public var capacity: Int { mask + 1 }

    /// Values dropped because the ring was full.
    /// - Thread: any.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    /// Values waiting to be popped (a snapshot).
    /// - Thread: any.
    public var count: Int { tail.load(ordering: .acquiring) - head.load(ordering: .acquiring) }

    /// Appends `value`, or drops and counts it when the ring is full.
    /// - Returns: false when the value was dropped.
    /// - Thread: any (the ring's one producer thread).
    @inlinable @discardableResult
    public func push(_ value: Element) -> Bool {
        let stored = stage(value)
        publish()
        return stored
    }

    /// Writes `value` where the consumer does not see it until the next `publish` (or
    /// `push`), or drops and counts it when the ring is full.
    /// - Returns: false when the value was dropped.
    /// - Thread: any (the ring's one producer thread).
    @inlinable @discardableResult
    public func stage(_ value: Element) -> Bool {
        let t = written
        if t - head.load(ordering: .acquiring) > mask {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        storage[t & mask] = value
        written = t + 1
        return true
    }

    /// Lets the consumer see every value staged since the last publish, all at once.
    /// - Thread: any (the ring's one producer thread).
    @inlinable
    public func publish() {
        tail.store(written, ordering: .releasing)
    }

    /// Removes the oldest value, or returns nil when the ring is empty.
    /// - Thread: any (the ring's one consumer thread).
    @inlinable
    public func pop() -> Element? {
        let h = head.load(ordering: .relaxed)
        if h == tail.load(ordering: .acquiring) { return nil }
        let value = storage[h & mask]
        head.store(h + 1, ordering: .releasing)
        return value
    }

    /// How many values the producer can stage or push now without a drop.
    /// - Thread: any (the ring's one producer thread).
    @inlinable
    public var space: Int { mask + 1 - (written - head.load(ordering: .acquiring)) }

    /// True when a push would succeed now.
    /// - Thread: any (the ring's one producer thread).
    @inlinable
    public var hasSpace: Bool { written - head.load(ordering: .acquiring) <= mask }
}
