import Synchronization

/// The block executor: runs the current `RenderProgram` once per block, feeding it the
/// events of that block.
///
/// Programs are swapped without locks: `install` (control) publishes a prepared program;
/// the render thread picks it up at the start of its next block and, while audio runs,
/// renders the outgoing and the incoming program together for `crossfade.seconds`
/// (see `RenderTransition`: a node both programs share is rendered once, nodes only in the
/// old program fade out, nodes only in the new one fade in). Then it hands the program it
/// replaced back through a ring; `collectRetired` (control) releases those, so a program is
/// never freed on the render thread. A program published during a crossfade is picked up
/// when that crossfade is over.
///
/// Live events go through `events`, a single-producer/single-consumer ring; each block
/// takes everything in it and applies each event at its `frame` (clamped into the block).
/// Events address nodes by id (see `RenderProgram`), so events queued across a swap reach
/// the same node in either program; during a crossfade an event for a node only the old
/// program has (a note-off for a removed instrument) still reaches it.
///
/// - Thread: any; see each member.
public final class RenderEngine: @unchecked Sendable {
    /// Control → render events for the next block. Full ring: dropped and counted.
    public let events: SPSCRing<RenderEvent>
    /// How a new program is blended in.
    public let crossfade: Crossfade
    /// Render → control: transitions (and their programs) replaced by a newer one, waiting to be released.
    private let retired = SPSCRing<UnsafeMutableRawPointer>(minimumCapacity: 16)
    /// A published `RenderTransition` not yet picked up by the render thread (retained +1).
    private let pending = Atomic<UnsafeMutableRawPointer?>(nil)
    /// Control side: the program of the last `install`.
    private var lastInstalled: RenderProgram?
    private let droppedEventTotal = Atomic<Int>(0)
    private let blocksRendered = Atomic<Int>(0)

    // Render-thread state.
    /// The transition whose program runs.
    private var current: Unmanaged<RenderTransition>?
    /// During a crossfade: the transition whose program fades out, and how far the fade is.
    private var outgoing: Unmanaged<RenderTransition>?
    private var fadePosition = 0
    private let scratch: UnsafeMutablePointer<RenderEvent>
    private let scratchCapacity: Int

    /// - Parameters:
    ///   - ringCapacity: live events the ring holds between two blocks.
    ///   - maxEventsPerBlock: events one block can carry (ring plus sequenced); more are
    ///     dropped and counted.
    ///   - crossfade: how a program installed while audio runs is blended in.
    /// - Thread: control.
    public init(ringCapacity: Int = 4096, maxEventsPerBlock: Int = 8192, crossfade: Crossfade = Crossfade()) {
        self.crossfade = crossfade
        events = SPSCRing(minimumCapacity: ringCapacity)
        scratchCapacity = maxEventsPerBlock
        scratch = .allocate(capacity: maxEventsPerBlock)
    }

    deinit {
        if let p = pending.exchange(nil, ordering: .acquiringAndReleasing) {
            Unmanaged<RenderTransition>.fromOpaque(p).release()
        }
        current?.release()
        outgoing?.release()
        collectRetired()
        scratch.deallocate()
    }

    /// Publishes `program`; the render thread switches to it at its next block (after a
    /// crossfade in progress), blending it in over `crossfade`. A program published earlier
    /// but not yet picked up is released here; the new one fades in from the program that
    /// actually runs.
    /// - Thread: control.
    public func install(_ program: RenderProgram) {
        var previous = lastInstalled
        if let skipped = pending.exchange(nil, ordering: .acquiringAndReleasing) {
            let transition = Unmanaged<RenderTransition>.fromOpaque(skipped)
            previous = transition.takeUnretainedValue().previous
            transition.release()
        }
        let transition = RenderTransition(program: program, previous: previous, crossfade: crossfade)
        lastInstalled = program
        pending.store(Unmanaged.passRetained(transition).toOpaque(), ordering: .releasing)
        collectRetired()
    }

    /// Releases programs the render thread has replaced (after their crossfade).
    /// - Returns: how many were released.
    /// - Thread: control.
    @discardableResult
    public func collectRetired() -> Int {
        var released = 0
        while let p = retired.pop() {
            Unmanaged<RenderTransition>.fromOpaque(p).release()
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
        guard let transition = current?.takeUnretainedValue() else {
            bus.clear(frames: frames)
            return false
        }
        let count = gatherEvents(frames: frames, sequenced: sequenced)
        let blockEvents = UnsafeBufferPointer(start: scratch, count: count)
        let dropped: Int
        if let fading = outgoing {
            dropped = transition.renderCrossfade(frames: frames, position: fadePosition, events: blockEvents,
                                                 bus: bus, host: host)
            fadePosition += frames
            if fadePosition >= transition.fadeFrames {
                retired.push(fading.toOpaque())
                outgoing = nil
            }
        } else {
            dropped = transition.program.process(frames: frames, events: blockEvents, bus: bus, host: host)
        }
        if dropped > 0 { droppedEventTotal.add(dropped, ordering: .relaxed) }
        blocksRendered.add(1, ordering: .relaxed)
        return true
    }

    /// What node `id` of the running program rendered in the last block — a node both
    /// programs of a crossfade hold renders into the new one's buffer — or `nil` when the
    /// running program has no such node. Valid until the next `render`.
    /// - Thread: render, after `render`.
    public func output(ofNode id: UInt16) -> AudioBus? {
        current?.takeUnretainedValue().program.output(ofNode: id)
    }

    /// Switches to a published program when no crossfade runs and the retired ring can take
    /// the current one: starts a crossfade from the current program, or swaps at once when
    /// the fade is empty (or was planned from another program).
    private func adoptPendingProgram() {
        guard outgoing == nil, retired.hasSpace,
              let opaque = pending.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        let next = Unmanaged<RenderTransition>.fromOpaque(opaque)
        let transition = next.takeUnretainedValue()
        if let old = current {
            if transition.fadeFrames > 0, transition.previous === old.takeUnretainedValue().program {
                outgoing = old
                fadePosition = 0
            } else {
                retired.push(old.toOpaque())
            }
        }
        current = next
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
