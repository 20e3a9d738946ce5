import Foundation
import Testing
@testable import Daemon

/// The MIDI input thread takes no lock another thread takes: it hands values over through
/// mailboxes and rings; a control-side lock taken on it traps in debug builds.
@Suite struct OwnerLockRuleTests {
    @Test func aMailboxHandsOverTheNewestValueOnce() {
        let mailbox = Mailbox<String>()
        #expect(mailbox.take() == nil)
        mailbox.put("first")
        mailbox.put("second")
        #expect(mailbox.take() == "second")
        #expect(mailbox.take() == nil)
    }

    @Test func aControlLockWorksOffTheOwner() {
        let lock = ControlLock(1, name: "test")
        #expect(lock.withLock { value -> Int in value += 1; return value } == 2)
    }

    #if DEBUG
    @Test func aControlLockTakenOnTheOwnerTraps() async {
        await #expect(processExitsWith: .failure) {
            let lock = ControlLock(0, name: "test")
            OwnerThread.adopt()
            lock.withLock { $0 += 1 }
        }
    }

    /// The owner's entry points (`HubDaemon.command`, `routeLive`, `publishView`) check where
    /// they run: on the owner, or while none runs, they go on; from another thread, they trap.
    @Test func anOwnerEntryPointCalledFromAnotherThreadTraps() async {
        // In a process of its own: other tests of this one adopt owners while they run.
        await #expect(processExitsWith: .success) { OwnerThread.assertOnOwner("no owner yet") }
        await #expect(processExitsWith: .failure) {
            let adopted = DispatchSemaphore(value: 0)
            Thread { OwnerThread.adopt(); adopted.signal(); while true { sleep(60) } }.start()
            adopted.wait()
            OwnerThread.assertOnOwner("HubDaemon.command")
        }
    }
    #endif
}
