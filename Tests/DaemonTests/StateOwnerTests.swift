import Foundation
import Glibc
import Synchronization
import Testing
@testable import Daemon

/// The daemon's state has one owner thread; other threads' work runs there.
@Suite struct StateOwnerTests {
    struct Refused: Error, Equatable {}

    /// A thread that owns `owner` and runs its queued work until `stop` is set.
    private final class OwnerLoop: @unchecked Sendable {
        let owner: StateOwner
        let stop = Atomic<Bool>(false)
        let started = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let id = Mutex<UInt>(0)

        init(_ owner: StateOwner) {
            self.owner = owner
            Thread { [self] in
                owner.becomeOwner()
                id.withLock { $0 = UInt(pthread_self()) }
                started.signal()
                var poll = pollfd(fd: owner.descriptor, events: Int16(POLLIN), revents: 0)
                while !stop.load(ordering: .acquiring) {
                    _ = Glibc.poll(&poll, 1, 10)
                    owner.runPending()
                }
                owner.resign()
                done.signal()
            }.start()
            started.wait()
        }

        func end() {
            stop.store(true, ordering: .releasing)
            done.wait()
        }
    }

    @Test func workFromAnotherThreadRunsOnTheOwnerAndReturnsItsResult() throws {
        let owner = try StateOwner()
        let thread = OwnerLoop(owner)
        defer { thread.end() }
        let ranOn = try owner.perform { UInt(pthread_self()) }
        #expect(ranOn == thread.id.withLock { $0 })
        #expect(ranOn != UInt(pthread_self()))
        #expect(throws: Refused.self) { try owner.perform { throw Refused() } }
    }

    @Test func manyThreadsWorkOneAtATimeOnTheOwner() async throws {
        let owner = try StateOwner()
        let thread = OwnerLoop(owner)
        defer { thread.end() }
        final class Counter: @unchecked Sendable { var value = 0 }  // touched only on the owner
        let counter = Counter()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<200 { try? owner.perform { counter.value += 1 } } }
            }
        }
        #expect(try owner.perform { counter.value } == 1_600)
    }

    @Test func withoutARunningOwnerWorkRunsOnTheCaller() throws {
        let owner = try StateOwner()
        #expect(try owner.perform { UInt(pthread_self()) } == UInt(pthread_self()), "before an owner runs")
        let thread = OwnerLoop(owner)
        thread.end()
        #expect(try owner.perform { UInt(pthread_self()) } == UInt(pthread_self()), "after the owner resigned")
    }

    @Test func workQueuedWhileTheOwnerResignsRunsExactlyOnce() async throws {
        for _ in 0..<20 {
            let owner = try StateOwner()
            let thread = OwnerLoop(owner)
            final class Counter: @unchecked Sendable { let value = Atomic<Int>(0) }
            let counter = Counter()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask { for _ in 0..<50 { try? owner.perform { counter.value.add(1, ordering: .relaxed) } } }
                }
                group.addTask { thread.end() }  // resigns while the others queue work
            }
            #expect(counter.value.load(ordering: .relaxed) == 200)
        }
    }
}
