import Synchronization

/// Raw MIDI events, each with a 64-bit tag, from a realtime producer to one consumer: a
/// lock-free ring of bytes (each event's length, its tag, its bytes; `SPSCRing`). An event
/// the ring has no room for is dropped whole and counted; the producer never waits or
/// allocates. JACK's process thread hands JACK MIDI to the owner through it: RtMidi's
/// inputs (`JackMIDIInbox`: the tag is the seconds since the previous event) and the hub's
/// own JACK client (`JackMIDILane`: the source's key and what was already played).
///
/// - Thread: any: `stage` and `publish` on the producer thread, `pop` on the consumer thread,
///   `droppedCount` from any thread.
public final class MIDIEventRing: @unchecked Sendable {
    /// Bytes before each event's own: its length (2) and its tag (8).
    private static let headerBytes = 10
    private let ring: SPSCRing<UInt8>
    private let dropped = Atomic<Int>(0)

    /// Creates a ring of at least `minimumBytes` bytes (an event takes its length and 10).
    /// - Thread: control (allocates).
    public init(minimumBytes: Int) {
        ring = SPSCRing(minimumCapacity: minimumBytes)
    }

    /// Stages one event's `count` bytes with `tag`, for the consumer to see at the next
    /// `publish`; false (and counted) when the ring has no room for it.
    /// - Thread: render (the one producer).
    @discardableResult
    public func stage(_ bytes: UnsafePointer<UInt8>, count: Int, tag: UInt64) -> Bool {
        guard count <= Int(UInt16.max), ring.space >= Self.headerBytes + count else {
            dropped.add(1, ordering: .relaxed)
            return false
        }
        ring.stage(UInt8(truncatingIfNeeded: count))
        ring.stage(UInt8(truncatingIfNeeded: count >> 8))
        for shift in stride(from: 0, to: 64, by: 8) { ring.stage(UInt8(truncatingIfNeeded: tag >> UInt64(shift))) }
        for index in 0..<count { ring.stage(bytes[index]) }
        return true
    }

    /// Makes every staged event visible to the consumer at once.
    /// - Thread: render (the one producer).
    public func publish() {
        ring.publish()
    }

    /// The oldest published event's tag, its bytes put in `bytes` (replacing what it held);
    /// nil when there is none.
    /// - Thread: owner (the one consumer).
    public func pop(into bytes: inout [UInt8]) -> UInt64? {
        guard let low = ring.pop(), let high = ring.pop() else { return nil }
        let length = Int(low) | Int(high) << 8
        var tag: UInt64 = 0
        for shift in stride(from: 0, to: 64, by: 8) { tag |= UInt64(ring.pop() ?? 0) << UInt64(shift) }
        bytes.removeAll(keepingCapacity: true)
        for _ in 0..<length { bytes.append(ring.pop() ?? 0) }
        return tag
    }

    /// Events dropped so far because the ring was full.
    /// - Thread: any.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }
}
