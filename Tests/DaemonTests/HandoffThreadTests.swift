import Control
import Foundation
import Synchronization
import Testing
@testable import Daemon

/// Lines and events leave the MIDI thread through `HandoffThread` and `DaemonLog` without
/// waiting for whoever takes them.
@Suite struct HandoffThreadTests {
    /// Values collected from the consumer thread.
    private final class Collected<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [T] = []
        private var lostCount = 0

        func append(_ new: [T], lost: Int) { lock.withLock { values += new; lostCount += lost } }
        var all: [T] { lock.withLock { values } }
        var lost: Int { lock.withLock { lostCount } }
    }

    /// Runs `body` on a thread of its own and waits for it.
    private func onThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread { body(); done.signal() }.start()
        done.wait()
    }

    @Test func theProducersValuesArriveInOrderAndOtherThreadsToo() {
        let collected = Collected<Int>()
        let handoff = HandoffThread<Int>(name: "test-handoff", capacity: 4096) { items, lost, _ in
            collected.append(items, lost: lost)
            return nil
        }
        defer { handoff.stop() }
        onThread {
            handoff.adoptProducer()
            for value in 0..<3000 { handoff.post(value) }
            handoff.releaseProducer()
        }
        handoff.post(-1)  // this thread is not the producer: the locked path
        handoff.flush()
        #expect(collected.all.filter { $0 >= 0 } == Array(0..<3000))
        #expect(collected.all.contains(-1))
        #expect(collected.lost == 0)
    }

    @Test func aConsumerThatIsStuckCostsTheProducerNothingButWhatItDrops() {
        let release = DispatchSemaphore(value: 0), taken = DispatchSemaphore(value: 0)
        let collected = Collected<Int>()
        let handoff = HandoffThread<Int>(name: "test-handoff", capacity: 64) { items, lost, _ in
            if items.first == 0 { taken.signal(); release.wait() }  // a write that blocks, as to a stderr nobody reads
            collected.append(items, lost: lost)
            return nil
        }
        defer { handoff.stop() }
        handoff.post(0)  // the consumer takes this one and blocks
        taken.wait()
        // The producer posts 10,000 more while the consumer is stuck: none of it waits.
        onThread {
            handoff.adoptProducer()
            for value in 1...10_000 { handoff.post(value) }
            handoff.releaseProducer()
        }
        release.signal()
        handoff.flush()
        let kept = collected.all
        #expect(kept.count + collected.lost == 10_001, "\(kept.count) kept, \(collected.lost) lost")
        #expect(collected.lost >= 10_000 - 128)
        #expect(kept == kept.sorted(), "what was kept stays in order")
    }

    @Test func theLogWritesItsLinesOnItsOwnThreadAndPublishesThem() {
        let lines = Collected<String>()
        let events = Collected<ControlEventBox>()
        let log = DaemonLog(writer: { lines.append([$0], lost: 0) })
        log.attach { events.append([ControlEventBox(event: $0)], lost: 0) }
        log.warning("a receiver stopped")
        log.flush()
        #expect(lines.all.count == 1)
        #expect(lines.all.first?.hasSuffix("midihub: warning: a receiver stopped") == true, "\(lines.all)")
        #expect(events.all.map(\.event) == [.log(level: .warning, message: "a receiver stopped")])
    }

    /// The soak's crash: each batch of events reached the subscribers through two more
    /// reabstraction thunks than the one before (the attached closure, handed out of a lock
    /// by `inout`, was re-wrapped each time), so the event thread's stack grew with the
    /// hub's age until it overflowed. The depth of the call must not depend on how many
    /// batches went before.
    @Test func theHundredthBatchOfEventsIsCalledAsDirectlyAsTheFirst() {
        let depths = Collected<Int>()
        let log = DaemonLog(writer: { _ in })
        log.attach { _ in depths.append([Thread.callStackReturnAddresses.count], lost: 0) }
        for batch in 0..<100 {
            log.publish(.sceneChanged(scene: "batch \(batch)"))
            log.flush()  // one batch each
        }
        let all = depths.all
        #expect(all.count == 100)
        #expect(Set(all).count == 1, "call depths of the batches, first to last: \(all.first ?? 0) … \(all.last ?? 0)")
    }
}

/// A `ControlEvent` in a box the collector can hold.
private struct ControlEventBox: Sendable {
    let event: ControlEvent
}
