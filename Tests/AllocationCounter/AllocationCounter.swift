import CMallocCounter
import Synchronization

/// Counts the allocations of one thread, for the zero-allocation tests (engine in
/// SynthTests, live driver loop in AudioHostTests), through the test process's own
/// `malloc` (`CMallocCounter`).
///
/// The count is process-wide, and `swift test` runs the suites of every test target at
/// once in one process: two suites counting together would reset and switch each other's
/// counting, and a zero count would prove nothing. So counting happens in `session`s,
/// one at a time.
///
/// - Thread: `session` on the test's thread; `watchCurrentThread` and `stopWatching` on
///   any thread inside a session (they allocate nothing: the render thread calls them).
public enum AllocationCounter {
    private static let sessions = Mutex<Void>(())

    /// Runs `body` (waiting for any other session to end first) and returns the
    /// allocations made, while `body` ran, by the thread that was watched.
    public static func session(_ body: () throws -> Void) rethrows -> Int {
        try sessions.withLock { _ in
            midihub_malloc_stop_watching()
            midihub_malloc_reset()
            defer { midihub_malloc_stop_watching() }
            try body()
            return midihub_malloc_count()
        }
    }

    /// Counts the calling thread's allocations from now on (until `stopWatching`).
    public static func watchCurrentThread() {
        midihub_malloc_watch_current_thread()
    }

    /// Counts no thread's allocations until `watchCurrentThread`.
    public static func stopWatching() {
        midihub_malloc_stop_watching()
    }
}
