import Foundation

/// A wait in a test ran past its deadline. The deadline is a hang guard, not a speed check:
/// it is generous, and a test that reaches it has found a bug (or a stuck machine), so the
/// test fails with `description` instead of hanging the run.
///
/// Thrown out of a `@Test` function, Swift Testing records it as the test's failure.
public struct DeadlinePassed: Error, CustomStringConvertible {
    public let description: String

    public init(_ message: String, seconds: Double) {
        let shown = seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
        description = "\(message) (gave up waiting after \(shown) s)"
    }
}

/// How long a test waits for something that takes milliseconds when it works.
public let testDeadlineSeconds: Double = 30

/// Checks `condition` until it holds, sleeping `pollMicroseconds` between checks
/// (0: only yields the processor, for tight producer/consumer loops).
///
///     try waitUntil({ !driver.isRunning }, message: "the driver never stopped")
///
/// - Throws: ``DeadlinePassed`` with `message` when `deadline` seconds pass first, and
///   whatever `condition` throws.
public func waitUntil(deadline seconds: Double = testDeadlineSeconds, pollMicroseconds: UInt32 = 1_000,
                      _ condition: () throws -> Bool, message: @autoclosure () -> String) throws {
    let end = ContinuousClock.now + .milliseconds(Int64(seconds * 1_000))
    while try !condition() {
        guard ContinuousClock.now < end else { throw DeadlinePassed(message(), seconds: seconds) }
        if pollMicroseconds == 0 { sched_yield() } else { usleep(pollMicroseconds) }
    }
}

/// Waits for `semaphore` to be signalled.
/// - Throws: ``DeadlinePassed`` with `message` when `deadline` seconds pass first.
public func wait(for semaphore: DispatchSemaphore, deadline seconds: Double = testDeadlineSeconds,
                 message: @autoclosure () -> String) throws {
    guard semaphore.wait(timeout: .now() + seconds) == .success else {
        throw DeadlinePassed(message(), seconds: seconds)
    }
}

/// Waits for `process` to exit. When `deadline` seconds pass first, kills it (SIGKILL,
/// which ends it at once) and throws.
/// - Throws: ``DeadlinePassed`` with `message`.
public func waitForExit(of process: Process, deadline seconds: Double = testDeadlineSeconds,
                        message: @autoclosure () -> String) throws {
    do {
        try waitUntil(deadline: seconds, { !process.isRunning }, message: message())
    } catch {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw error
    }
    process.waitUntilExit()
}

/// Runs `body` on a new thread and waits for it to return: for a call that blocks until
/// another thread finishes (a join), or that must run on a fresh thread.
///
/// - Returns: what `body` returned.
/// - Throws: what `body` threw, or ``DeadlinePassed`` with `message` when it has not
///   returned within `deadline` seconds (its thread is then left behind, keeping what
///   `body` holds alive, so nothing else waits on it).
public func onThread<T>(deadline seconds: Double = testDeadlineSeconds, message: @autoclosure () -> String,
                        _ body: @escaping @Sendable () throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        outcome.result = Result { try body() }
        done.signal()
    }
    thread.start()
    try wait(for: done, deadline: seconds, message: message())
    return try outcome.result!.get()
}

/// The result of `onThread`'s body: written before the semaphore is signalled, read after
/// it was waited for.
private final class Outcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
