import ALSA
import Foundation
import Testing

@Suite("Realtime priority")
struct PCMRealtimePriorityTests {
    /// Runs `body` on a new thread (so the test runner's own threads keep their
    /// policy) and returns its result.
    private func onFreshThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    @Test("the outcome matches the thread's actual policy, and a denial explains the fix")
    func outcomeMatchesPolicy() {
        let (outcome, policy, priority) = onFreshThread { () -> (PCMRealtimePriority, Int32, Int32) in
            let outcome = PCMRealtimePriority.requestForCurrentThread()
            var policy: Int32 = 0
            var parameters = sched_param()
            pthread_getschedparam(pthread_self(), &policy, &parameters)
            return (outcome, policy, parameters.sched_priority)
        }
        switch outcome {
        case .granted(let granted):
            #expect(policy == SCHED_FIFO)
            #expect(priority == granted)
            #expect(granted <= PCMRealtimePriority.defaultPriority)
        case .denied(let warning):
            #expect(policy == SCHED_OTHER)
            #expect(warning.hasPrefix("midihub: realtime priority"))
            #expect(warning.contains("normal priority"))
            #expect(!warning.contains("\n"))
        }
    }
}
