import RenderCore
import Synchronization

/// One stereo frame of what the render thread played.
///
/// - Thread: any (a plain value).
public struct StereoFrame: Sendable, BitwiseCopyable {
    public var left: Float
    public var right: Float
}

/// Where the render thread hands what it plays to a recorder: a lock-free ring of stereo
/// frames — the master output, or one node's output (`source`) — filled only while armed. The render thread never waits: when the recorder falls
/// behind by more than the ring holds (about 10 s), frames are dropped and counted.
///
/// - Thread: any: `push` on the render thread; `arm`, `disarm` and `pop` on the recorder's
///   thread (one consumer); counters from any thread.
public final class AudioTap: Sendable {
    /// What the tap takes from each block.
    public enum Source: Equatable, Sendable {
        /// What the sound card plays.
        case master
        /// The main output of the render node with this id (`RenderEvent.node`).
        case node(UInt16)
        /// Silence: the recorded node left the graph (the take keeps its length).
        case silence
    }

    let ring: SPSCRing<StereoFrame>
    private let armed = Atomic<Bool>(false)
    /// The source, coded: -1 master, -2 silence, else a node id.
    private let sourceCode = Atomic<Int>(-1)

    /// - Thread: control (allocates).
    public init(capacity: Int = 1 << 19) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// Whether the render thread pushes what it plays.
    /// - Thread: any.
    public var isArmed: Bool { armed.load(ordering: .acquiring) }

    /// Makes the render thread push what it plays from its next block on.
    /// - Thread: control (the recorder, as it starts).
    public func arm() { armed.store(true, ordering: .releasing) }

    /// Stops the render thread's pushes from its next block on.
    /// - Thread: control (the recorder: `stop`, or its writer thread when a write fails).
    public func disarm() { armed.store(false, ordering: .releasing) }

    /// What the render thread hands over from now on.
    /// - Thread: any (the daemon's owner chooses it as the graph changes).
    public var source: Source {
        get {
            switch sourceCode.load(ordering: .relaxed) {
            case -1: .master
            case -2: .silence
            case let id: .node(UInt16(truncatingIfNeeded: id))
            }
        }
        set {
            let code = switch newValue {
            case .master: -1
            case .silence: -2
            case .node(let id): Int(id)
            }
            sourceCode.store(code, ordering: .relaxed)
        }
    }

    /// Pushes `frames` frames of the block while armed: the master `output`, or what the
    /// chosen node rendered (silence when `engine` runs no such node).
    /// - Thread: render (no allocation, no lock), after `engine.render`.
    func push(output: AudioBus, of engine: RenderEngine, frames: Int) {
        guard armed.load(ordering: .relaxed) else { return }
        let bus: AudioBus? = switch source {
        case .master: output
        case .node(let id): engine.output(ofNode: id)
        case .silence: nil
        }
        defer { ring.publish() }  // once a block: one atomic store, not one a frame
        guard let bus else {
            for _ in 0..<frames { ring.stage(StereoFrame(left: 0, right: 0)) }
            return
        }
        for i in 0..<frames { ring.stage(StereoFrame(left: bus.left[i], right: bus.right[i])) }
    }

    /// Frames dropped because the recorder fell behind.
    /// - Thread: any.
    public var droppedFrames: Int { ring.droppedCount }
}
