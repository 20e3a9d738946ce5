import Dispatch
import Glibc
import RtMidiBackend
import Synchronization

/// The one owner of the daemon's state: the MIDI input thread. Every other thread — the
/// control server's, main while it starts and stops the daemon — hands it work with
/// `perform`, which queues the work, wakes the owner's poll through an eventfd and waits for
/// the result. The owner runs queued work between two batches of MIDI (`runPending`), so the
/// state is never touched by two threads at once and no lock is held while MIDI is routed.
/// (The queue itself is a list behind a mutex held only to append to it or take it, never
/// while work runs.) Before the owner runs and after it stops, `perform` runs work on the
/// calling thread: there is no other thread then.
///
/// - Thread: `perform` from any thread; `runPending`, `becomeOwner` and `resign` on the owner.
final class StateOwner: Sendable {
    /// One piece of queued work (it captures its caller's result and semaphore).
    private final class Work: @unchecked Sendable {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// The owner thread (`pthread_self`) while it runs, else 0, and the work queued for it;
    /// one mutex, so that no work is queued after the owner resigned.
    /// Where queued work leaves its result (written on the owner before `done` is signalled).
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    private let state = Mutex<(owner: UInt, work: [Work])>((0, []))
    /// Readable while work is queued: the owner polls it beside the sequencer.
    private let wakeup: WakeupEvent

    /// - Throws: `JackMIDIError` naming `eventfd` when the kernel refuses one.
    init() throws(JackMIDIError) {
        wakeup = try WakeupEvent()
    }

    /// The descriptor the owner polls: readable when work waits.
    var descriptor: Int32 { wakeup.descriptor }

    /// Runs `body` on the owner thread and returns its result, waiting for it; on the owner
    /// itself, or while no owner runs, runs it at once.
    /// - Thread: any.
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        let work = Work { outcome.result = Result(catching: body); done.signal() }
        let queued = state.withLock { state in
            guard state.owner != 0, state.owner != UInt(pthread_self()) else { return false }
            state.work.append(work)
            return true
        }
        if queued {
            wakeup.signal()
            done.wait()
        } else {
            work.run()
        }
        return try outcome.result!.get()
    }

    /// Runs the work queued so far.
    /// - Thread: owner.
    func runPending() {
        wakeup.reset()
        let work = state.withLock { state in
            defer { state.work.removeAll() }
            return state.work
        }
        for item in work { item.run() }
    }

    /// Makes the calling thread the owner.
    /// - Thread: owner, first thing.
    func becomeOwner() {
        state.withLock { $0.owner = UInt(pthread_self()) }
    }

    /// Ends ownership: work queued meanwhile runs now, later work on its caller's thread.
    /// - Thread: owner, last thing.
    func resign() {
        let work = state.withLock { state in
            defer { state = (0, []) }
            return state.work
        }
        for item in work { item.run() }
    }
}
