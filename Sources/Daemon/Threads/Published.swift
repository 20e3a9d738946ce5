import Synchronization

/// A value one thread publishes and any thread reads, without a lock and without waiting
/// for the publisher: `publish` swaps the new value in with one atomic exchange; `value`
/// takes the current one. A replaced value is released by the publisher only once no reader
/// is between loading it and retaining it (a count of readers at that step), so no reader
/// ever holds a freed value and the publisher never waits: it releases later, at its next
/// `publish` or `releaseRetired`, when it finds no reader there.
///
/// - Thread: owner: `publish` and `releaseRetired` on one thread (the owner); `value` any.
final class Published<Value: Sendable>: @unchecked Sendable {
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let current: Atomic<Unmanaged<Box>>
    /// Readers between loading `current` and retaining what they loaded.
    private let taking = Atomic<Int>(0)
    /// Values swapped out and not yet released (touched by the publisher only).
    private var retired: [Unmanaged<Box>] = []

    /// - Thread: control (main, while the daemon starts).
    init(_ initial: Value) {
        current = Atomic(Unmanaged.passRetained(Box(initial)))
        retired.reserveCapacity(8)
    }

    deinit {
        current.load(ordering: .sequentiallyConsistent).release()
        for box in retired { box.release() }
    }

    /// The value published last.
    /// - Thread: any.
    var value: Value {
        taking.add(1, ordering: .sequentiallyConsistent)
        let box = current.load(ordering: .sequentiallyConsistent).retain()
        taking.subtract(1, ordering: .sequentiallyConsistent)
        return box.takeRetainedValue().value
    }

    /// Makes `value` the one readers take from now on; the one it replaces is released once
    /// no reader can still be taking it.
    /// - Thread: owner (the one publisher).
    func publish(_ value: Value) {
        let old = current.exchange(Unmanaged.passRetained(Box(value)), ordering: .sequentiallyConsistent)
        retired.append(old)
        releaseRetired()
    }

    /// Releases the values swapped out, when no reader is taking one.
    /// - Thread: owner (the one publisher).
    func releaseRetired() {
        guard !retired.isEmpty, taking.load(ordering: .sequentiallyConsistent) == 0 else { return }
        for box in retired { box.release() }
        retired.removeAll(keepingCapacity: true)
    }
}
