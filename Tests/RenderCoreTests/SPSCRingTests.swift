import Foundation
import RenderCore
import Synchronization
import Testing
import TestSupport

/// Set once, seen by any thread.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}

@Suite struct SPSCRingTests {
    @Test func keepsOrderAndDropsAndCountsWhenFull() {
        let ring = SPSCRing<Int>(minimumCapacity: 5)
        #expect(ring.capacity == 8)
        for i in 0..<8 { #expect(ring.push(i)) }
        #expect(!ring.push(8) && !ring.push(9), "a full ring drops")
        #expect(ring.droppedCount == 2)
        #expect((0..<8).map { _ in ring.pop() } == Array(0..<8))
        #expect(ring.pop() == nil)
        #expect(ring.push(10) && ring.pop() == 10, "space is reused after pops")
    }

    @Test func stagedValuesAppearTogetherAtPublish() {
        let ring = SPSCRing<Int>(minimumCapacity: 4)
        #expect(ring.stage(1) && ring.stage(2))
        #expect(ring.pop() == nil && ring.count == 0, "nothing is seen before the publish")
        ring.publish()
        #expect(ring.count == 2)
        #expect(ring.pop() == 1 && ring.pop() == 2 && ring.pop() == nil)
        #expect(ring.stage(3))
        #expect(ring.push(4), "a push publishes what was staged before it")
        #expect(ring.pop() == 3 && ring.pop() == 4)
        for i in 0..<4 { #expect(ring.stage(i)) }
        #expect(!ring.stage(9) && !ring.hasSpace, "staged values take room: a full ring drops")
        ring.publish()
        #expect((0..<4).map { _ in ring.pop() } == Array(0..<4))
    }

    @Test func oneProducerAndOneConsumerThreadPassEveryValueInOrder() throws {
        let ring = SPSCRing<Int>(minimumCapacity: 64)
        let total = 200_000
        // The producer gives up when the consumer does (a ring that loses or never frees
        // slots would otherwise keep it spinning).
        let gaveUp = Flag()
        let producerDone = DispatchSemaphore(value: 0)
        let producer = Thread {
            var next = 0
            while next < total, !gaveUp.isSet { if ring.push(next) { next += 1 } }
            producerDone.signal()
        }
        producer.start()
        defer { gaveUp.set() }
        var expected = 0
        var inOrder = true
        try waitUntil(pollMicroseconds: 0, {
            while expected <= total, let value = ring.pop() {
                inOrder = inOrder && value == expected
                expected += 1
            }
            return expected >= total
        }, message: "the consumer got \(expected) of \(total) values")
        #expect(inOrder)
        #expect(expected == total, "more values came out than went in")
        #expect(ring.count == 0)
        try wait(for: producerDone, message: "the producer thread never finished")
    }
}

@Suite struct ValueTypeTests {
    @Test func smoothedValueRampsLinearlyToItsTarget() {
        var value = SmoothedValue(0, rampFrames: 4)
        value.set(1)
        #expect((0..<5).map { _ in value.next() } == [0.25, 0.5, 0.75, 1, 1])
        value.set(0)
        #expect(value.advance(2) == 0.5 && value.advance(10) == 0 && !value.isRamping)
    }

    @Test func hostSyncAdvancesBeatsAndBars() {
        var host = HostSync(sampleRate: 48_000, tempo: 120, transport: .playing)
        host = host.advanced(by: 48_000 * 5 / 2) // 2.5 s = 5 beats
        #expect(host.beat == 5 && host.bar == 2 && host.barStartBeat == 4 && host.samplePosition == 120_000)
        let stopped = HostSync(transport: .stopped).advanced(by: 480)
        #expect(stopped.beat == 0 && stopped.samplePosition == 480)
    }

    @Test func fourCharCodesRoundTrip() {
        #expect(FourCharCode("auri").description == "auri")
        #expect(FourCharCode("auri").rawValue == 0x6175_7269)
        #expect(NodeKind.musicEffect.code == "aurm")
    }
}
