import Synchronization

/// The block executor: runs the current `RenderProgram` once per block, feeding it the
/// events of that block.
///
/// Programs are swapped without locks: `install` (control) publishes a prepared program;
/// the render thread picks it up at the start of its next block and hands the program it
/// replaced back through a ring. `collectRetired` (control) releases those, so a program is
/// never freed on the render thread.
///
/// Live events go through `events`, a single-producer/single-consumer ring; each block
/// takes everything in it and applies each event at its `frame` (clamped into the block).
///
/// - Thread: see each member.
public final class RenderEngine: @unchecked Sendable {
    /// Control → render events for the next block. Full ring: dropped and counted.
    public let events: SPSCRing<RenderEvent>
    /// Render → control: programs replaced by a newer one, waiting to be released.
    private let retired = SPSCRing<UnsafeMutableRawPointer>(minimumCapacity: 16)
    /// A published program not yet picked up by the render thread (retained +1).
    private let pending = Atomic<UnsafeMutableRawPointer?>(nil)
    private let droppedEventTotal = Atomic<Int>(0)
    private let blocksRendered = Atomic<Int>(0)

    // Render-thread state.
    private var current: Unmanaged<RenderProgram>?
    private let scratch: UnsafeMutablePointer<RenderEvent>
    private let scratchCapacity: Int

    /// - Parameters:
    ///   - ringCapacity: live events the ring holds between two blocks.
    ///   - maxEventsPerBlock: events one block can carry (ring plus sequenced); more are
    ///     dropped and counted.
    /// - Thread: control.
    public init(ringCapacity: Int = 4096, maxEventsPerBlock: Int = 8192) {
        events = SPSCRing(minimumCapacity: ringCapacity)
        scratchCapacity = maxEventsPerBlock
        scratch = .allocate(capacity: maxEventsPerBlock)
    }

    deinit {
        if let p = pending.exchange(nil, ordering: .acquiringAndReleasing) {
            Unmanaged<RenderProgram>.fromOpaque(p).release()
        }
        current?.release()
        while let p = retired.pop() { Unmanaged<RenderProgram>.fromOpaque(p).release() }
        scratch.deallocate()
    }

    /// Publishes `program`; the render thread switches to it at its next block. A program
    /// published earlier but not yet picked up is released here.
    /// - Thread: control.
    public func install(_ program: RenderProgram) {
        let opaque = Unmanaged.passRetained(program).toOpaque()
        if let skipped = pending.exchange(opaque, ordering: .acquiringAndReleasing) {
            Unmanaged<RenderProgram>.fromOpaque(skipped).release()
        }
        collectRetired()
    }

    /// Releases programs the render thread has replaced.
    /// - Returns: how many were released.
    /// - Thread: control.
    @discardableResult
    public func collectRetired() -> Int {
        var released = 0
        while let p = retired.pop() {
            Unmanaged<RenderProgram>.fromOpaque(p).release()
            released += 1
        }
        return released
    }

    /// Events dropped so far: ring full, or more events than a block can carry.
    /// - Thread: any.
    public var droppedEvents: Int { events.droppedCount + droppedEventTotal.load(ordering: .relaxed) }

    /// Blocks rendered so far.
    /// - Thread: any.
    public var renderedBlocks: Int { blocksRendered.load(ordering: .relaxed) }

    /// Renders one block of `frames` frames into `bus`.
    ///
    /// - Parameters:
    ///   - sequenced: events of this block sorted by `frame` (each `< frames`), e.g. from
    ///     the sequencer; merged with whatever is waiting in `events`.
    /// - Returns: false when no program is installed (the bus is then silent).
    /// - Thread: render.
    @discardableResult
    public func render(frames: Int, bus: AudioBus, host: HostSync,
                       sequenced: UnsafeBufferPointer<RenderEvent> = UnsafeBufferPointer(start: nil, count: 0)) -> Bool {
        adoptPendingProgram()
        guard let program = current?.takeUnretainedValue() else {
            bus.clear(frames: frames)
            return false
        }
        let count = gatherEvents(frames: frames, sequenced: sequenced)
        let dropped = program.process(frames: frames, events: UnsafeBufferPointer(start: scratch, count: count),
                                      bus: bus, host: host)
        if dropped > 0 { droppedEventTotal.add(dropped, ordering: .relaxed) }
        blocksRendered.add(1, ordering: .relaxed)
        return true
    }

    /// Switches to a published program if the retired ring can take the current one.
    private func adoptPendingProgram() {
        guard retired.hasSpace, let next = pending.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        if let old = current { retired.push(old.toOpaque()) }
        current = Unmanaged.fromOpaque(next)
    }

    /// Copies the sequenced events and the ring's events into `scratch`, sorted by frame
    /// (stable: sequenced first on ties). Returns the count.
    private func gatherEvents(frames: Int, sequenced: UnsafeBufferPointer<RenderEvent>) -> Int {
        var count = 0
        var dropped = 0
        for event in sequenced {
            if count == scratchCapacity { dropped += 1; continue }
            scratch[count] = event
            count += 1
        }
        let lastFrame = UInt32(max(frames - 1, 0))
        while var event = events.pop() {
            if count == scratchCapacity { dropped += 1; continue }
            event.frame = min(event.frame, lastFrame)
            var i = count
            while i > 0 && scratch[i - 1].frame > event.frame {
                scratch[i] = scratch[i - 1]
                i -= 1
            }
            scratch[i] = event
            count += 1
        }
        if dropped > 0 { droppedEventTotal.add(dropped, ordering: .relaxed) }
        return count
    }
}
