/// Where SoundFont voices add their sound: the dry stereo pair (panned), and — when the
/// graph takes the node's send outputs — the mono reverb and chorus sends, each voice at
/// its own send level (generators 16 and 15 with CC 91 and 93 through the default
/// modulators), unpanned, as FluidSynth feeds its effects.
///
/// - Thread: render.
struct VoiceOutput {
    var left: UnsafeMutablePointer<Float>
    var right: UnsafeMutablePointer<Float>
    /// Both sends or neither.
    var sends: (reverb: UnsafeMutablePointer<Float>, chorus: UnsafeMutablePointer<Float>)?

    /// The same outputs `frames` frames on.
    @inline(__always)
    func advanced(by frames: Int) -> VoiceOutput {
        VoiceOutput(left: left + frames, right: right + frames, sends: sends.map { ($0.reverb + frames, $0.chorus + frames) })
    }

    /// Adds one frame of a voice: `value` panned into the pair and sent at its levels.
    @inline(__always)
    func add(_ value: Float, at i: Int, panLeft: Float, panRight: Float, reverb: Float, chorus: Float) {
        left[i] += value * panLeft
        right[i] += value * panRight
        if let sends {
            sends.reverb[i] += value * reverb
            sends.chorus[i] += value * chorus
        }
    }
}
