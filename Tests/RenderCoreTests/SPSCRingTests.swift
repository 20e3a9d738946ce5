import Foundation
import RenderCore
import Testing

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

    @Test func oneProducerAndOneConsumerThreadPassEveryValueInOrder() async {
        let ring = SPSCRing<Int>(minimumCapacity: 64)
        let total = 200_000
        let producer = Thread {
            var next = 0
            while next < total { if ring.push(next) { next += 1 } }
        }
        producer.start()
        var expected = 0
        var inOrder = true
        while expected < total {
            if let value = ring.pop() {
                inOrder = inOrder && value == expected
                expected += 1
            }
        }
        #expect(inOrder)
        #expect(ring.count == 0)
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
