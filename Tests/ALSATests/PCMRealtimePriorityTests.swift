import ALSA
import Foundation
import Testing
import TestSupport

@Suite("Realtime priority")
struct PCMRealtimePriorityTests {
    @Test("the outcome matches the thread's actual policy, and a denial explains the fix")
    func outcomeMatchesPolicy() throws {
        // On a new thread, so the test runner's own threads keep their policy.
        let (outcome, policy, priority) = try onThread(message: "requesting realtime priority never returned") {
            () -> (PCMRealtimePriority, Int32, Int32) in
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
