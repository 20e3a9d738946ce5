/// What the vector lanes read of one voice for a span and write back after it: where it
/// reads its sample and how fast, its amplitude ramp, its levels into the outputs, its
/// filter and its sample's bounds. The instrument copies its voices into these and back,
/// so the lanes' kernels (`FourVoiceLanes`, and `EightVoiceLanes` on AVX2) know nothing of
/// envelopes, modulators or stealing.
///
/// - Thread: render (a plain value).
@frozen public struct LaneVoice {
    /// Where the voice reads (frames into the font's sample data) and how far it moves a frame.
    public var position: Double
    public var increment: Double
    /// The amplitude now and its change a frame.
    public var amplitude: Float
    public var amplitudeStep: Float
    /// Levels into the left and right channels and the reverb and chorus sends.
    public var left: Float, right: Float, reverb: Float, chorus: Float
    /// The filter (`ResonantLowPass`): its transposed direct form II coefficients and state.
    public var b0: Float, b1: Float, b2: Float, a1: Float, a2: Float
    public var state1: Float, state2: Float
    /// The sample's first and end frame, its loop, and whether it loops now.
    public var start: Int, end: Int, loopStart: Int, loopEnd: Int
    public var isLooping: Bool

    @inlinable
    public init(position: Double, increment: Double, amplitude: Float, amplitudeStep: Float,
                left: Float, right: Float, reverb: Float, chorus: Float,
                filter: (b0: Float, b1: Float, b2: Float, a1: Float, a2: Float), state1: Float, state2: Float,
                start: Int, end: Int, loopStart: Int, loopEnd: Int, isLooping: Bool) {
        (self.position, self.increment, self.amplitude, self.amplitudeStep) = (position, increment, amplitude, amplitudeStep)
        (self.left, self.right, self.reverb, self.chorus) = (left, right, reverb, chorus)
        (b0, b1, b2, a1, a2) = filter
        (self.state1, self.state2) = (state1, state2)
        (self.start, self.end, self.loopStart, self.loopEnd, self.isLooping) = (start, end, loopStart, loopEnd, isLooping)
    }

    /// Whether the lanes take the voice across its loop's end (`wraps`).
    @inlinable
    public var wrapsInLanes: Bool {
        Self.wraps(isLooping: isLooping, start: start, loopStart: loopStart, loopEnd: loopEnd, increment: increment)
    }

    /// Whether the lanes take a voice across its loop's end (the common case): the frames
    /// around the wrap read from the loop's start as `EdgeFrames` has it, and the position
    /// moves back a loop's length. Needs a frame before the loop's start inside the sample
    /// (what the frame after a wrap reads first), and a loop at least twice the increment
    /// (one wrap a frame at most).
    @inlinable @inline(__always)
    public static func wraps(isLooping: Bool, start: Int, loopStart: Int, loopEnd: Int, increment: Double) -> Bool {
        let length = loopEnd - loopStart
        return isLooping && loopStart > start && length >= 4 && increment * 2 <= Double(length)
    }
}
