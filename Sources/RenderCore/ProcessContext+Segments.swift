extension ProcessContext {
    /// Splits the block at its events: renders `[start, start+count)` up to each event's
    /// frame, applies every event due at that frame, and renders on to the end of the
    /// block. Events thus take effect exactly at their frame.
    /// - Thread: render (closures are non-escaping; nothing allocates).
    @inlinable
    public func forEachSegment(apply: (RenderEvent) -> Void, render: (_ start: Int, _ count: Int) -> Void) {
        var position = 0
        var index = 0
        let eventCount = events.count
        while position < frames {
            while index < eventCount && Int(events[index].frame) <= position {
                apply(events[index])
                index += 1
            }
            let end = index < eventCount ? min(Int(events[index].frame), frames) : frames
            if end > position { render(position, end - position) }
            position = end
        }
        while index < eventCount {
            apply(events[index])
            index += 1
        }
    }
}
