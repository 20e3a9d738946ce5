import MIDICore
import RenderCore

/// Walks a `RenderSchedule` block by block: hands out the events of each block with
/// their frame offsets inside it. Used by the offline renderer and the live audio driver.
///
/// - Thread: the rendering thread (no allocation in `events(from:frames:into:capacity:)`).
public struct ScheduleCursor: Sendable {
    public let schedule: RenderSchedule
    /// Index of the next entry not yet handed out.
    public private(set) var nextEntry = 0

    /// - Thread: any.
    public init(schedule: RenderSchedule) {
        self.schedule = schedule
    }

    /// Writes the entries that fall into frames `start ..< start + frames` into `buffer`,
    /// sorted, each with `frame` = its offset inside the block. When more than `capacity`
    /// fall into the block, the rest stay for the next block (and land at its frame 0).
    /// - Returns: how many events were written.
    /// - Thread: render.
    public mutating func events(from start: FramePosition, frames: Int, into buffer: UnsafeMutablePointer<RenderEvent>,
                                capacity: Int) -> Int {
        let end = start + Int64(frames)
        var count = 0
        let entries = schedule.entries
        while nextEntry < entries.count && entries[nextEntry].frame < end && count < capacity {
            var event = entries[nextEntry].event
            event.frame = entries[nextEntry].frame.offset(inBlockAt: start)
            buffer[count] = event
            count += 1
            nextEntry += 1
        }
        return count
    }
}
