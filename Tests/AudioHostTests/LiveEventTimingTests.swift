@testable import AudioHost
import MIDICore
import RenderCore
import Testing

/// Live events are delivered one block after they arrive, at their exact offset.
@Suite("Live event timing")
struct LiveEventTimingTests {
    static let rate = 48_000
    static let blockFrames = 480
    /// 480 frames at 48 kHz.
    static let blockNanoseconds: Int64 = 10_000_000
    static let firstBlockStart: Int64 = 5_000_000_000

    /// Runs `blocks` blocks starting one period apart and returns every delivered event
    /// with its absolute frame (block index × block frames + offset).
    private func deliver(_ arrivals: [Int64], blocks: Int, sequenced: [RenderEvent] = []) -> [(frame: Int, event: RenderEvent)] {
        let ring = SPSCRing<LiveEvent>(minimumCapacity: 1024)
        for (index, arrival) in arrivals.enumerated() {
            ring.push(LiveEvent(event: .noteOn(channel: 0, note: UInt8(index % 128), velocity: 100), arrival: HostTime(nanoseconds: arrival)))
        }
        var timing = LiveEventTiming(sampleRate: Self.rate)
        let buffer = UnsafeMutablePointer<RenderEvent>.allocate(capacity: 1024)
        defer { buffer.deallocate() }
        var delivered: [(Int, RenderEvent)] = []
        for block in 0..<blocks {
            var count = 0
            if block == 1 {
                for event in sequenced { buffer[count] = event; count += 1 }
            }
            let dropped = timing.collect(from: ring, blockStart: HostTime(nanoseconds: Self.firstBlockStart + Int64(block) * Self.blockNanoseconds),
                                         frames: Self.blockFrames, into: buffer, count: &count, capacity: 1024)
            #expect(dropped == 0)
            let frames = (0..<count).map { Int(buffer[$0].frame) }
            #expect(frames == frames.sorted(), "block \(block) is not sorted by frame")
            delivered += (0..<count).map { (block * Self.blockFrames + Int(buffer[$0].frame), buffer[$0]) }
        }
        return delivered
    }

    @Test func everyEventSoundsExactlyOneBlockAfterItArrived() {
        var generator = SystemRandomNumberGenerator()
        let span = 20 * Self.blockNanoseconds
        let arrivals = (0..<300).map { _ in Self.firstBlockStart + Int64.random(in: 0..<span, using: &generator) }.sorted()
        let delivered = deliver(arrivals, blocks: 22).filter { $0.event.kind == .noteOn }
        #expect(delivered.count == arrivals.count)
        for (arrival, delivery) in zip(arrivals, delivered) {
            let arrivalFrame = Int((Double(arrival - Self.firstBlockStart) * Double(Self.rate) / 1e9).rounded(.down))
            #expect(delivery.frame - arrivalFrame == Self.blockFrames, "arrival frame \(arrivalFrame)")
        }
    }

    /// What a mapped controller move does (`AudioRack.setParameter(at:)` pushes the parameter
    /// with the controller event's arrival): it lands on the frame of a note that arrived with
    /// it, whatever the period.
    @Test(arguments: [64, 256, 1024])
    func aParameterMovedByAControllerLandsOnTheFrameOfANoteArrivingWithIt(blockFrames: Int) {
        let ring = SPSCRing<LiveEvent>(minimumCapacity: 1024)
        let blockNanoseconds = Int64(blockFrames) * 1_000_000_000 / Int64(Self.rate)
        var generator = SystemRandomNumberGenerator()
        let arrivals = (0..<128).map { _ in HostTime(nanoseconds: Self.firstBlockStart + Int64.random(in: 0..<(30 * blockNanoseconds), using: &generator)) }
        for (index, arrival) in arrivals.sorted().enumerated() {
            ring.push(LiveEvent(event: .noteOn(channel: 0, note: UInt8(index), velocity: 100), arrival: arrival))
            ring.push(LiveEvent(event: .parameter(node: 1, id: UInt32(index), value: 1), arrival: arrival))
        }
        var timing = LiveEventTiming(sampleRate: Self.rate)
        let buffer = UnsafeMutablePointer<RenderEvent>.allocate(capacity: 1024)
        defer { buffer.deallocate() }
        var noteFrames: [Int: Int] = [:], parameterFrames: [Int: Int] = [:]
        for block in 0..<32 {
            var count = 0
            _ = timing.collect(from: ring, blockStart: HostTime(nanoseconds: Self.firstBlockStart + Int64(block) * blockNanoseconds),
                               frames: blockFrames, into: buffer, count: &count, capacity: 1024)
            for event in (0..<count).map({ buffer[$0] }) {
                let frame = block * blockFrames + Int(event.frame)
                if event.kind == .noteOn { noteFrames[Int(event.data1)] = frame } else { parameterFrames[Int(event.parameter)] = frame }
            }
        }
        #expect(noteFrames.count == 128 && noteFrames == parameterFrames)
    }

    /// The MIDI thread held up past the block after a note and a controller arrived (a busy
    /// machine): staged and published together, they land late on one frame; pushed one by
    /// one with a block between them, the parameter would land a block after the note.
    @Test func aNoteAndAParameterStagedTogetherLandOnOneFrameEvenWhenLate() {
        let ring = SPSCRing<LiveEvent>(minimumCapacity: 16)
        var timing = LiveEventTiming(sampleRate: Self.rate)
        let buffer = UnsafeMutablePointer<RenderEvent>.allocate(capacity: 16)
        defer { buffer.deallocate() }
        func block(_ index: Int) -> [RenderEvent] {
            var count = 0
            _ = timing.collect(from: ring, blockStart: HostTime(nanoseconds: Self.firstBlockStart + Int64(index) * Self.blockNanoseconds),
                               frames: Self.blockFrames, into: buffer, count: &count, capacity: 16)
            return (0..<count).map { buffer[$0] }
        }
        let arrival = HostTime(nanoseconds: Self.firstBlockStart + 2_500_000)  // block 1, frame 120, if on time
        #expect(block(0).isEmpty)
        ring.stage(LiveEvent(event: .noteOn(channel: 0, note: 60, velocity: 100), arrival: arrival))
        #expect(block(1).isEmpty && block(2).isEmpty, "staged: not seen yet")
        ring.stage(LiveEvent(event: .parameter(node: 1, id: 0, value: 1), arrival: arrival))
        ring.publish()
        let late = block(3)
        #expect(late.map(\.kind) == [.noteOn, .parameter])
        #expect(late.map(\.frame) == [0, 0], "late together, on one frame")
    }

    @Test func anEventArrivingMidBlockWaitsForTheNextBlockAtItsOffset() {
        // 2.5 ms after block 0 started → block 1, frame 120; 7 ms into block 1 → block 2, frame 336.
        let delivered = deliver([Self.firstBlockStart + 2_500_000, Self.firstBlockStart + 17_000_000], blocks: 3)
        #expect(delivered.map(\.frame) == [480 + 120, 960 + 336])
    }

    @Test func lateEventsLandAtFrameZeroAndSequencedEventsComeFirstOnTies() {
        let sequenced = [RenderEvent.controlChange(channel: 0, controller: 7, value: 1, frame: 0),
                         RenderEvent.controlChange(channel: 0, controller: 7, value: 2, frame: 200)]
        // Arrived before the window of block 0 (a stalled thread): its frame 0. Arrived as
        // block 0 started: block 1, frame 0, after the sequenced event there.
        let delivered = deliver([Self.firstBlockStart - 50_000_000, Self.firstBlockStart, Self.firstBlockStart + 5_000_000],
                                blocks: 2, sequenced: sequenced)
        #expect(delivered.map(\.frame) == [0, 480, 480, 680, 720])
        #expect(delivered.map(\.event.kind) == [.noteOn, .controlChange, .noteOn, .controlChange, .noteOn])
    }
}
