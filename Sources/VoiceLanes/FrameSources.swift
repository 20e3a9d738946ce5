import SoundFont

/// Reads frame `index` of a voice's sample (possibly outside it: the source decides what
/// lies there).
///
/// - Thread: render.
public protocol FrameSource {
    func callAsFunction(_ index: Int) -> Float
}

/// Frames read as they are: the caller made sure every index is inside the sample.
@frozen public struct DirectFrames: FrameSource {
    public let frames: SoundFontFrames
    @inlinable public init(frames: SoundFontFrames) { self.frames = frames }
    @inlinable @inline(__always) public func callAsFunction(_ index: Int) -> Float { frames[index] }
}

/// Frames near the sample's edges: a looping voice reads past the loop end from the loop
/// start; otherwise indices are held to the first and last frame.
@frozen public struct EdgeFrames: FrameSource {
    public let frames: SoundFontFrames
    public let first: Int, last: Int
    public let loopStart: Int, loopEnd: Int
    public let looping: Bool

    @inlinable
    public init(frames: SoundFontFrames, first: Int, last: Int, loopStart: Int, loopEnd: Int, looping: Bool) {
        (self.frames, self.first, self.last) = (frames, first, last)
        (self.loopStart, self.loopEnd, self.looping) = (loopStart, loopEnd, looping)
    }

    @inlinable @inline(__always) public func callAsFunction(_ index: Int) -> Float {
        var i = index
        if looping && i >= loopEnd { i -= loopEnd - loopStart }
        return frames[min(max(i, first), last)]
    }
}
