/// Where SoundFont voices add their sound: the dry stereo pair (panned), and — when the
/// graph takes the node's send outputs — the mono reverb and chorus sends, each voice at
/// its own send level (generators 16 and 15 with CC 91 and 93 through the default
/// modulators), unpanned, as FluidSynth feeds its effects.
///
/// - Thread: render.
@frozen public struct VoiceOutput {
    public var left: UnsafeMutablePointer<Float>
    public var right: UnsafeMutablePointer<Float>
    /// Both sends or neither.
    public var sends: (reverb: UnsafeMutablePointer<Float>, chorus: UnsafeMutablePointer<Float>)?

    @inlinable
    public init(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                sends: (reverb: UnsafeMutablePointer<Float>, chorus: UnsafeMutablePointer<Float>)?) {
        (self.left, self.right, self.sends) = (left, right, sends)
    }

    /// The same outputs `frames` frames on.
    @inlinable @inline(__always)
    public func advanced(by frames: Int) -> VoiceOutput {
        VoiceOutput(left: left + frames, right: right + frames, sends: sends.map { ($0.reverb + frames, $0.chorus + frames) })
    }

    /// Adds one frame of a voice: `value` panned into the pair and sent at its levels.
    @inlinable @inline(__always)
    public func add(_ value: Float, at i: Int, panLeft: Float, panRight: Float, reverb: Float, chorus: Float) {
        left[i] += value * panLeft
        right[i] += value * panRight
        if let sends {
            sends.reverb[i] += value * reverb
            sends.chorus[i] += value * chorus
        }
    }
}
