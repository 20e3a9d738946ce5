import RenderCore

/// A stereo-linked feed-forward compressor, a limiter at ratio 20: it keeps dense songs
/// from clipping.
///
/// Each frame's level is the louder of |left| and |right| in dBFS. Above the threshold the
/// static curve lets the level rise only 1/ratio dB per dB; the soft knee blends the two
/// slopes over `knee` dB centred on the threshold. The gain reduction the curve asks for is
/// smoothed in decibels by a decoupled peak detector (Giannoulis, Massberg & Reiss, 2012):
/// held at its deepest and let go with the release time constant, so the zero crossings of
/// a loud wave do not count as quiet, then approached with the attack one. One gain (with
/// the makeup) scales both channels, so the stereo image stays put. Threshold and makeup
/// glide frame by frame.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class CompressorNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// dBFS: where the curve bends (the knee's middle).
        case threshold = 0
        /// Decibels in per decibel out above the threshold (1: no compression; 20: a limiter).
        case ratio
        /// Milliseconds: the time constant of rising gain reduction.
        case attack
        /// Milliseconds: the time constant of falling gain reduction.
        case release
        /// Decibels of gain after compression.
        case makeup
        /// Decibels: the width of the soft knee (0: a hard knee).
        case knee
    }

    /// - Thread: any (a plain value).
    public enum Output: Int, CaseIterable {
        /// Decibels the compressor takes off now (0: none), without the makeup.
        case gainReduction = 0
    }

    /// The deepest gain change in decibels (≤ 0) the curve asked for, letting go at the release rate.
    private var held: Float = 0
    /// The gain change applied, in decibels (≤ 0): `held` approached at the attack rate.
    private var reduction: Float = 0

    /// - Thread: control.
    public init() {
        super.init(subtype: "mcmp", name: "compressor", parameters: [
            ParameterInfo(id: 0, name: "threshold", range: -60...0, defaultValue: -12, unit: .decibels),
            ParameterInfo(id: 1, name: "ratio", range: 1...20, defaultValue: 4, unit: .generic),
            ParameterInfo(id: 2, name: "attack", range: 0.1...100, defaultValue: 5, unit: .milliseconds),
            ParameterInfo(id: 3, name: "release", range: 10...1000, defaultValue: 100, unit: .milliseconds),
            ParameterInfo(id: 4, name: "makeup", range: 0...24, defaultValue: 0, unit: .decibels),
            ParameterInfo(id: 5, name: "knee", range: 0...12, defaultValue: 6, unit: .decibels),
        ], outputs: [OutputInfo(id: UInt32(Output.gainReduction.rawValue), name: "gain reduction", unit: .decibels)])
    }

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        (held, reduction) = (0, 0)
    }

    /// The slowest release's time constant: in a silence the gain reduction lets go as it
    /// would with sound, and only that much later does the compressor sleep (`wake` then
    /// lets go of what little is left at once).
    /// - Thread: any (read by `prepare` on control and by `process` on render).
    override var tailFrames: Int {
        Int(values.infos[Int(Parameter.release.rawValue)].range.upperBound * 0.001 * sampleRate)
    }

    override func wake() {
        (held, reduction) = (0, 0)
    }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        let thresholdStart = values.current(Parameter.threshold), makeupStart = values.current(Parameter.makeup)
        let thresholdStep = (values.advance(Parameter.threshold, frames: frames) - thresholdStart) / Float(frames)
        let makeupStep = (values.advance(Parameter.makeup, frames: frames) - makeupStart) / Float(frames)
        let slope = 1 / values.advance(Parameter.ratio, frames: frames) - 1
        let knee = values.advance(Parameter.knee, frames: frames)
        let attack = smoothing(milliseconds: values.advance(Parameter.attack, frames: frames))
        let release = smoothing(milliseconds: values.advance(Parameter.release, frames: frames))
        var held = held, reduction = reduction
        for i in 0..<frames {
            let along = Float(i + 1)
            let level = gainToDecibels(max(abs(bus.left[i]), abs(bus.right[i]), Self.silence))
            let wanted = Self.gainChange(over: level - (thresholdStart + thresholdStep * along), slope: slope, knee: knee)
            held = min(wanted, held + release * (wanted - held))
            reduction += attack * (held - reduction)
            let gain = decibelsToGain(reduction + makeupStart + makeupStep * along)
            bus.left[i] *= gain
            bus.right[i] *= gain
        }
        (self.held, self.reduction) = (held, reduction)
        outputValues.store(abs(reduction), at: Output.gainReduction.rawValue)
    }

    /// The fraction of the way to its target a one-pole smoother with a time constant of
    /// `milliseconds` moves per frame: 1 − e^(−1/(τ·rate)).
    /// - Thread: render.
    private func smoothing(milliseconds: Float) -> Float {
        1 - exp2Fast(-1.442_695 / (milliseconds * 0.001 * sampleRate))
    }

    /// The gain change in decibels (≤ 0) the static curve asks for at a level `over`
    /// decibels above the threshold: none below the knee, `slope` dB per dB above it
    /// (1/ratio − 1), and in the knee the quadratic that joins the two.
    /// - Thread: render.
    @inline(__always)
    private static func gainChange(over: Float, slope: Float, knee: Float) -> Float {
        if 2 * over <= -knee { return 0 }
        if 2 * over < knee {
            let into = over + knee / 2
            return slope * into * into / (2 * knee)
        }
        return slope * over
    }
}
