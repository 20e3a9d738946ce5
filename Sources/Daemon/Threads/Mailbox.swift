import Synchronization

/// Holds the newest of the values put into it until one is taken: a lock-free, wait-free
/// hand-over of one value (a state to save, a probe's answer) between two threads. `put`
/// replaces a value not taken yet.
///
/// - Thread: any (`put` allocates the value's box: not on the render thread).
final class Mailbox<Value>: @unchecked Sendable {
    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let slot = Atomic<Unmanaged<Box>?>(nil)

    init() {}

    deinit {
        _ = take()
    }

    /// Leaves `value` for the taker, replacing what it has not taken yet.
    func put(_ value: Value) {
        let box = Unmanaged.passRetained(Box(value))
        slot.exchange(box, ordering: .acquiringAndReleasing)?.release()
    }

    /// The newest value put and not taken yet, or `nil`; empties the mailbox.
    func take() -> Value? {
        slot.exchange(nil, ordering: .acquiringAndReleasing)?.takeRetainedValue().value
    }
}
