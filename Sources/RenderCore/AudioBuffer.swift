/// Preallocated float32 audio: one or two channels of `capacity` frames each.
///
/// - Thread: render: its samples are read and written by the render thread; allocated on control.
public final class AudioBuffer: @unchecked Sendable {
    public let channelCount: Int
    public let capacity: Int
    public let left: UnsafeMutablePointer<Float>
    /// Equals `left` for a mono buffer.
    public let right: UnsafeMutablePointer<Float>

    /// - Thread: control (allocates).
    public init(channels: Int, capacity: Int) {
        precondition(channels == 1 || channels == 2, "AudioBuffer is mono or stereo")
        channelCount = channels
        self.capacity = capacity
        left = .allocate(capacity: capacity)
        left.initialize(repeating: 0, count: capacity)
        if channels == 2 {
            right = .allocate(capacity: capacity)
            right.initialize(repeating: 0, count: capacity)
        } else {
            right = left
        }
    }

    deinit {
        left.deallocate()
        if channelCount == 2 { right.deallocate() }
    }

    /// A non-owning view of the buffer.
    /// - Thread: any.
    public var bus: AudioBus { AudioBus(left: left, right: right, channelCount: channelCount) }
}

/// A non-owning view of one or two channels of samples, handed to `Node.process`.
///
/// - Thread: render.
public struct AudioBus: @unchecked Sendable {
    public var left: UnsafeMutablePointer<Float>
    public var right: UnsafeMutablePointer<Float>
    public var channelCount: Int

    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, channelCount: Int = 2) {
        self.left = left
        self.right = right
        self.channelCount = channelCount
    }

    /// Sets the first `frames` samples of every channel to zero.
    @inlinable
    public func clear(frames: Int) {
        left.update(repeating: 0, count: frames)
        if channelCount == 2 { right.update(repeating: 0, count: frames) }
    }
}
