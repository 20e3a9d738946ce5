import Foundation
import Testing
import TestSupport

/// The hang guards of the tests (`TestSupport`) fail when their deadline passes, with the
/// message they were given, and return as soon as what they wait for happens.
@Suite struct DeadlineHelperTests {
    @Test func waitUntilFailsWithItsMessageAtTheDeadline() {
        var checks = 0
        #expect {
            try waitUntil(deadline: 0.05, { checks += 1; return false }, message: "never true")
        } throws: { error in
            (error as? DeadlinePassed)?.description == "never true (gave up waiting after 0.05 s)"
        }
        #expect(checks > 1, "the condition is checked again until the deadline")
    }

    @Test func waitUntilReturnsOnceTheConditionHolds() throws {
        var checks = 0
        try waitUntil({ checks += 1; return checks == 3 }, message: "unreachable")
        #expect(checks == 3)
    }

    @Test func aSemaphoreWaitFailsAtTheDeadline() throws {
        let semaphore = DispatchSemaphore(value: 0)
        #expect(throws: DeadlinePassed.self) { try wait(for: semaphore, deadline: 0.05, message: "no signal") }
        semaphore.signal()
        try wait(for: semaphore, deadline: 0.05, message: "signalled")
    }

    @Test func aThreadThatNeverReturnsFailsAtTheDeadline() throws {
        let release = DispatchSemaphore(value: 0)
        #expect {
            try onThread(deadline: 0.05, message: "stuck") { release.wait() }
        } throws: { error in
            (error as? DeadlinePassed)?.description == "stuck (gave up waiting after 0.05 s)"
        }
        release.signal()
        #expect(try onThread(message: "unreachable") { 42 } == 42)
    }

    @Test func aProcessPastItsDeadlineIsKilled() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = ["60"]
        try process.run()
        #expect(throws: DeadlinePassed.self) { try waitForExit(of: process, deadline: 0.1, message: "sleep 60") }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
    }
}
