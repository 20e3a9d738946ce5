import Dispatch
import Glibc
import RtMidiBackend
import Synchronization

/// The one owner of the daemon's state: the MIDI input thread. Every other thread — the
/// control server's, main while it starts and stops the daemon — hands it work with
/// `perform`, which queues the work, wakes the owner's poll through an eventfd and waits for
/// the result. The owner runs queued work between two batches of MIDI (`runPending`), so the
/// state is never touched by two threads at once and no lock is held while MIDI is routed.
/// The queue takes no lock at all: a lock-free stack that callers push onto and the owner
/// takes whole (one atomic exchange), then runs oldest first. Before the owner runs and after
/// it stops, `perform` runs work on the calling thread: there is no other thread then. Each
/// piece of work runs exactly once, even when the owner resigns while it is being queued.
///
/// - Thread: any: `perform` from any thread; `runPending`, `becomeOwner` and `resign` on the owner.
final class StateOwner: Sendable {
    /// One piece of queued work (it captures its caller's result and semaphore), and the link
    /// to the piece queued before it.
    private final class Work: @unchecked Sendable {
        let run: () -> Void
        /// Set by whoever runs it: the owner, or its caller when the owner resigned meanwhile.
        let claimed = Atomic<Bool>(false)
        /// Written before the work is published on the stack, read after it is taken.
        var next: Unmanaged<Work>?
        init(_ run: @escaping () -> Void) { self.run = run }

        func runOnce() {
            if !claimed.exchange(true, ordering: .acquiringAndReleasing) { run() }
        }
    }

    /// Where queued work leaves its result (written on the owner before `done` is signalled).
    private final class Outcome<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }

    /// The owner thread (`pthread_self`) while it runs, else 0.
    private let owner = Atomic<UInt>(0)
    /// The newest queued work; each links to the one queued before it.
    private let queued = Atomic<Unmanaged<Work>?>(nil)
    /// Readable while work is queued: the owner polls it beside the sequencer.
    private let wakeup: WakeupEvent

    /// - Throws: `JackMIDIError` naming `eventfd` when the kernel refuses one.
    /// - Thread: control (main, while the daemon starts).
    init() throws(JackMIDIError) {
        wakeup = try WakeupEvent()
    }

    deinit {
        runQueued()
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
        let current = owner.load(ordering: .sequentiallyConsistent)
        if current != 0, current != UInt(pthread_self()) {
            push(work)
            wakeup.signal()
            // The owner may have resigned meanwhile, after taking what was queued: then the
            // work runs here (and whatever else was queued late), each piece once.
            if owner.load(ordering: .sequentiallyConsistent) == 0 { runQueued() }
            done.wait()
        } else {
            work.runOnce()
        }
        return try outcome.result!.get()
    }

    /// Runs the work queued so far (an atomic exchange when there is none). `signalled`: the
    /// owner's poll found `descriptor` readable, so its signal is cleared first (a `read`
    /// only then; a signal left set wakes the next poll at once, and is cleared there).
    /// - Thread: owner.
    func runPending(signalled: Bool = true) {
        if signalled { wakeup.reset() }
        runQueued()
    }

    /// Makes the calling thread the owner.
    /// - Thread: owner, first thing.
    func becomeOwner() {
        owner.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
        OwnerThread.adopt()
    }

    /// Ends ownership: work queued meanwhile runs now, later work on its caller's thread.
    /// - Thread: owner, last thing.
    func resign() {
        OwnerThread.release()
        owner.store(0, ordering: .sequentiallyConsistent)
        runQueued()
    }

    private func push(_ work: Work) {
        let node = Unmanaged.passRetained(work)
        var head = queued.load(ordering: .relaxed)
        while true {
            work.next = head
            let (exchanged, original) = queued.compareExchange(expected: head, desired: node, ordering: .acquiringAndReleasing)
            if exchanged { return }
            head = original
        }
    }

    /// Takes everything queued and runs it, oldest first (each piece once).
    private func runQueued() {
        var taken: [Work] = []
        var next = queued.exchange(nil, ordering: .acquiringAndReleasing)
        while let node = next {
            let work = node.takeRetainedValue()
            next = work.next
            work.next = nil
            taken.append(work)
        }
        for work in taken.reversed() { work.runOnce() }
    }
}
