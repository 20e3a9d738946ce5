import MIDICore
import RenderCore

/// Turns arrival times of live events into frame offsets with one block of constant
/// latency, on the render thread.
///
/// The render thread calls `collect` at the start of every block with the time it
/// started. Block *k* starts at time `T[k]`; an event that arrived at `t` with
/// `T[k-1] <= t < T[k]` is delivered in block *k* at offset `⌊(t − T[k-1]) × rate⌋`.
/// Since blocks start one period apart once the device paces the loop, an event sounds
/// exactly one block after it arrived, whatever its position inside the block: the
/// latency is constant and there is no jitter from block quantization.
///
/// Events that arrived before `T[k-1]` (a stalled render thread, the first block) land at
/// offset 0; events stamped at or after `T[k]` wait for the next block.
///
/// - Thread: render (no allocation).
struct LiveEventTiming {
    let timeBase: TimeBase
    /// When the previous block started; nil before the first block.
    private var previousBlockStart: HostTime?
    /// An event popped too early (it arrived after this block started), kept for the next.
    private var carried: LiveEvent?

    init(sampleRate: Int) {
        timeBase = TimeBase(sampleRate: sampleRate)
    }

    /// Inserts the live events due in this block into `buffer` (whose first `count` events
    /// are sorted by frame; the result is too, live events after sequenced ones on ties).
    /// - Returns: events dropped because `buffer` was full.
    mutating func collect(from ring: SPSCRing<LiveEvent>, blockStart: HostTime, frames: Int,
                          into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        let windowStart = previousBlockStart ?? blockStart
        previousBlockStart = blockStart
        let lastFrame = UInt32(max(frames - 1, 0))
        var dropped = 0
        while let live = carried ?? ring.pop() {
            carried = nil
            guard live.arrival < blockStart else {
                carried = live
                break
            }
            guard count < capacity else {
                dropped += 1
                continue
            }
            var event = live.event
            event.frame = min(offset(arrival: live.arrival, windowStart: windowStart), lastFrame)
            Self.insert(event, into: buffer, count: &count)
        }
        return dropped
    }

    /// Whole frames between the start of the previous block and the arrival (0 when earlier):
    /// the frame during which the event arrived.
    private func offset(arrival: HostTime, windowStart: HostTime) -> UInt32 {
        guard arrival > windowStart else { return 0 }
        return UInt32(clamping: timeBase.frames(in: arrival - windowStart))
    }

    /// Inserts `event` into the first `count` events of `buffer` (sorted by frame), after
    /// those of the same frame: insertion from the end keeps the buffer sorted and stable.
    static func insert(_ event: RenderEvent, into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int) {
        var index = count
        while index > 0 && buffer[index - 1].frame > event.frame {
            buffer[index] = buffer[index - 1]
            index -= 1
        }
        buffer[index] = event
        count += 1
    }
}
