import Glibc
import MallocInterposerSwift
import Synchronization

/// Counts the allocations of one thread, for the zero-allocation tests (engine in
/// SynthTests, live driver loop in AudioHostTests), with malloc-interposer.
///
/// The interposer's switch and hook are process-wide, and `swift test` runs the suites of
/// every test target at once in one process: two suites counting together would switch
/// each other's counting off, and a zero count would prove nothing. So counting happens
/// in `session`s, one at a time.
///
/// - Thread: `session` on the test's thread; `watchCurrentThread` and `stopWatching` on
///   any thread inside a session (they allocate nothing: the render thread calls them).
public enum AllocationCounter {
    private static let watchedThread = Atomic<UInt>(0)
    private static let allocations = Atomic<Int>(0)
    private static let sessions = Mutex<Void>(())

    private static let countWatchedThread: @convention(c) (Int) -> Void = { _ in
        if UInt(pthread_self()) == watchedThread.load(ordering: .relaxed) {
            allocations.add(1, ordering: .relaxed)
        }
    }

    /// Runs `body` with counting on (waiting for any other session to end first) and
    /// returns the allocations made, while `body` ran, by the thread that was watched.
    public static func session(_ body: () throws -> Void) rethrows -> Int {
        try sessions.withLock { _ in
            allocations.store(0, ordering: .relaxed)
            MallocInterposerSwift.setAllocationHook(countWatchedThread)
            MallocInterposerSwift.hook()
            defer {
                watchedThread.store(0, ordering: .relaxed)
                MallocInterposerSwift.unhook()
                MallocInterposerSwift.setAllocationHook(nil)
            }
            try body()
            return allocations.load(ordering: .relaxed)
        }
    }

    /// Counts the calling thread's allocations from now on (until `stopWatching`).
    public static func watchCurrentThread() {
        watchedThread.store(UInt(pthread_self()), ordering: .relaxed)
    }

    /// Counts no thread's allocations until `watchCurrentThread`.
    public static func stopWatching() {
        watchedThread.store(0, ordering: .relaxed)
    }
}
