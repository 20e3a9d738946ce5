import Dispatch
import AudioHost
import Foundation
import Glibc
import MIDICore
import RtMidiBackend
import Synchronization

/// Values handed to a thread of their own, which does the slow part with them (writes a log
/// line, encodes an event for the control clients) so that the thread that made them never
/// waits. The owner thread (the MIDI input thread, `adoptProducer`) hands over through a
/// lock-free ring: a push, and an eventfd write only when the consumer sleeps; a full ring
/// drops the value and counts it. Any other thread hands over behind a lock the owner never
/// takes.
///
/// The consumer gets each batch in the order each thread posted it, with the count lost
/// since the last batch, and may ask to be called again at a time of its own (the
/// monotonic time it returns), with or without new values: that is how events are
/// coalesced.
///
/// - Thread: any but render: `post` from any thread but render; `adoptProducer`/`releaseProducer` on the
///   owner; `flush` and `stop` on any thread but the consumer's.
final class HandoffThread<Item: Sendable>: @unchecked Sendable {
    /// Takes a batch (`items`, possibly empty, and how many were lost) at `now` (the monotonic
    /// clock; `HostTime.distantFuture` when the thread stops: everything held is due) and
    /// returns when it wants to be called again, or `nil` for "when values come".
    typealias Consumer = @Sendable (_ items: [Item], _ lost: Int, _ now: HostTime) -> HostTime?

    private let ring: ValueRing<Item>
    /// What threads other than the producer posted, and what they lost.
    private let others = ControlLock<(items: [Item], lost: Int)>(([], 0), name: "HandoffThread.others")
    private let capacity: Int
    /// `pthread_self()` of the thread that posts through the ring, or 0.
    private let producer = Atomic<UInt>(0)
    /// Set by the consumer before it sleeps; the producer wakes it only then.
    private let sleeping = Atomic<Bool>(false)
    private let wakeup: WakeupEvent
    private let stopping = Atomic<Bool>(false)
    /// Values posted (kept or lost) and values the consumer has had (or counted lost), for `flush`.
    private let posted = Atomic<Int>(0)
    private let handled = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts the consumer thread, named `name`.
    /// - Parameter capacity: values that may wait from the owner, and from the other threads.
    init(name: String, capacity: Int, consumer: @escaping Consumer) {
        ring = ValueRing(minimumCapacity: capacity)
        self.capacity = capacity
        // An eventfd is all this needs; failing to get one means no descriptors left at all.
        wakeup = try! WakeupEvent()
        let thread = Thread { [self] in run(consumer) }
        thread.name = name
        thread.start()
    }

    /// Makes the calling thread the one that posts through the lock-free ring.
    /// - Thread: owner, first thing.
    func adoptProducer() {
        producer.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    }

    /// The calling thread stops being the ring's producer (its later posts take the lock).
    /// - Thread: owner, last thing.
    func releaseProducer() {
        producer.store(0, ordering: .sequentiallyConsistent)
    }

    /// Hands `item` to the consumer; never waits on it. Past `capacity` waiting values it is
    /// dropped and counted.
    func post(_ item: Item) {
        posted.add(1, ordering: .relaxed)
        if producer.load(ordering: .relaxed) == UInt(pthread_self()) {
            ring.push(item)
            if sleeping.exchange(false, ordering: .sequentiallyConsistent) { wakeup.signal() }
        } else {
            others.withLock { others in
                if others.items.count < capacity { others.items.append(item) } else { others.lost += 1 }
            }
            wakeup.signal()
        }
    }

    /// Waits until the consumer has had everything posted before the call, at most `seconds`
    /// (a consumer stuck in a blocked write is not waited for longer).
    func flush(seconds: Double = 2) {
        let target = posted.load(ordering: .sequentiallyConsistent)
        wakeup.signal()
        let deadline = DispatchTime.now() + seconds
        while handled.load(ordering: .acquiring) < target, DispatchTime.now() < deadline {
            usleep(500)
        }
    }

    /// Gives the consumer what waits (and everything it holds, as due), then ends its thread;
    /// waits at most `seconds` for it.
    func stop(seconds: Double = 2) {
        guard !stopping.exchange(true, ordering: .sequentiallyConsistent) else { return }
        wakeup.signal()
        _ = finished.wait(timeout: .now() + seconds)
    }

    private func run(_ consumer: Consumer) {
        var ringLost = 0
        var due: HostTime?
        var items: [Item] = []
        while true {
            let stop = stopping.load(ordering: .sequentiallyConsistent)
            sleeping.store(true, ordering: .sequentiallyConsistent)
            if !stop, ring.count == 0, others.withLock({ $0.items.isEmpty && $0.lost == 0 }) {
                wait(until: due)
            }
            sleeping.store(false, ordering: .sequentiallyConsistent)
            ring.popAll(into: &items)
            let fromOthers = others.withLock { others in
                defer { others = ([], 0) }
                return others
            }
            items += fromOthers.items
            let lostNow = ring.droppedCount - ringLost + fromOthers.lost
            ringLost += lostNow - fromOthers.lost
            let now = stop ? HostTime.distantFuture : HostTime.now()
            if !items.isEmpty || lostNow > 0 || due.map({ now >= $0 }) == true || stop {
                due = consumer(items, lostNow, now)
                handled.add(items.count + lostNow, ordering: .releasing)
                items.removeAll(keepingCapacity: true)
            }
            if stop { break }
        }
        finished.signal()
    }

    /// Sleeps until the eventfd is signalled or `due` (the monotonic clock) passes.
    private func wait(until due: HostTime?) {
        var timeout: Int32 = -1
        if let due {
            let left = due - HostTime.now()
            timeout = left <= .zero ? 0 : Int32(clamping: (left.nanoseconds + 999_999) / 1_000_000)
        }
        var descriptor = pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, timeout)
        wakeup.reset()
    }
}
