import Glibc
import Synchronization

/// Which thread owns the daemon's state now (the MIDI input thread while it runs), for the
/// checks that keep locks off it (`ControlLock`).
///
/// - Thread: any.
enum OwnerThread {
    private static let id = Atomic<UInt>(0)

    /// Marks the calling thread as the owner.
    /// - Thread: owner, first thing.
    static func adopt() {
        id.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    }

    /// No thread owns the state any more.
    /// - Thread: owner, last thing.
    static func release() {
        id.store(0, ordering: .sequentiallyConsistent)
    }

    /// Whether the calling thread is the owner.
    static var isCurrent: Bool {
        id.load(ordering: .relaxed) == UInt(pthread_self())
    }

    /// In debug builds, traps unless the calling thread may touch the state: the owner while
    /// one runs, any thread while none does (main before the owner starts and after it
    /// stops). The owner's entry points call it, so work that reached the state from another
    /// thread fails its first test. Nothing in release builds.
    static func assertOnOwner(_ entry: StaticString, file: StaticString = #fileID, line: UInt = #line) {
        assert({ let owner = id.load(ordering: .relaxed); return owner == 0 || owner == UInt(pthread_self()) }(),
               "\(entry) ran off the MIDI input thread (the state's owner)", file: file, line: line)
    }
}

/// A lock for the control side's threads only. The MIDI input thread, the state's owner,
/// never takes a lock another thread also takes (it hands over through lock-free rings and
/// mailboxes instead); in debug builds taking this lock on the owner traps, naming the lock,
/// so a change that breaks the rule fails its first test.
///
/// - Thread: any but owner.
final class ControlLock<Value>: Sendable {
    private let mutex: Mutex<Value>
    private let name: StaticString

    init(_ value: sending Value, name: StaticString) {
        mutex = Mutex(value)
        self.name = name
    }

    /// Runs `body` with the lock held.
    func withLock<Result, E: Error>(_ body: (inout sending Value) throws(E) -> sending Result) throws(E) -> sending Result {
        assert(!OwnerThread.isCurrent, "the MIDI input thread (the state's owner) took the control side's lock '\(name)'")
        return try mutex.withLock(body)
    }
}
