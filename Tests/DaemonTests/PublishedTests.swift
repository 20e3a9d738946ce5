import Dispatch
import Synchronization
import Testing
@testable import Daemon

/// `Published`: what the owner publishes is what readers take, and readers on other threads
/// taking values while it publishes and releases the replaced ones never see a freed or a
/// torn value.
@Suite struct PublishedTests {
    final class Counted: Sendable {
        static let alive = Atomic<Int>(0)
        let number: Int
        let check: Int
        init(_ number: Int) {
            self.number = number
            check = number &* 31
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test func readersTakeTheLastPublishedValue() {
        let published = Published(1)
        #expect(published.value == 1)
        published.publish(2)
        published.publish(3)
        #expect(published.value == 3)
    }

    /// Four readers take values while the publisher publishes 20,000 of them: each value read
    /// is whole and never older than one read before it; the replaced ones are all released.
    @Test func readersDuringPublishingSeeWholeValuesInOrder() async {
        let before = Counted.alive.load(ordering: .relaxed)
        do {
            let published = Published(Counted(0))
            let done = Atomic<Bool>(false)
            let problems = Atomic<Int>(0)
            let readers = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: readers) {
                    var last = 0
                    while !done.load(ordering: .acquiring) {
                        let value = published.value
                        if value.check != value.number &* 31 || value.number < last { problems.add(1, ordering: .relaxed) }
                        last = value.number
                    }
                }
            }
            for number in 1...20_000 { published.publish(Counted(number)) }
            done.store(true, ordering: .releasing)
            readers.wait()
            published.releaseRetired()
            #expect(problems.load(ordering: .relaxed) == 0)
            #expect(published.value.number == 20_000)
            #expect(Counted.alive.load(ordering: .relaxed) == before + 1)  // only the current one
        }
        #expect(Counted.alive.load(ordering: .relaxed) == before)
    }
}
