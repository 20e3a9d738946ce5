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
/// frames, filled only while armed. The render thread never waits: when the recorder falls
/// behind by more than the ring holds (about 10 s), frames are dropped and counted.
///
/// - Thread: `push` on the render thread; `arm`, `disarm` and `pop` on the recorder's
///   thread (one consumer); counters from any thread.
public final class AudioTap: Sendable {
    let ring: SPSCRing<StereoFrame>
    private let armed = Atomic<Bool>(false)

    /// - Thread: control (allocates).
    public init(capacity: Int = 1 << 19) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// Whether the render thread pushes what it plays.
    /// - Thread: any.
    public var isArmed: Bool { armed.load(ordering: .acquiring) }

    /// - Thread: the recorder.
    public func arm() { armed.store(true, ordering: .releasing) }

    /// - Thread: the recorder.
    public func disarm() { armed.store(false, ordering: .releasing) }

    /// Pushes `frames` frames of the block while armed.
    /// - Thread: render (no allocation, no lock).
    func push(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) {
        guard armed.load(ordering: .relaxed) else { return }
        for i in 0..<frames { ring.push(StereoFrame(left: left[i], right: right[i])) }
    }

    /// Frames dropped because the recorder fell behind.
    /// - Thread: any.
    public var droppedFrames: Int { ring.droppedCount }
}
