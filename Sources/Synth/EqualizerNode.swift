import RenderCore

/// A three-band stereo equalizer: a low shelf, a parametric (peaking) mid band and a high
/// shelf in series. A band at 0 dB passes the sound unchanged, so the defaults are flat.
/// Parameter changes glide: while a smoothed value moves, its band is redesigned once per
/// chunk.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class EqualizerNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Decibels below the low frequency.
        case lowGain = 0
        /// Hertz: the low shelf's midpoint (half its gain).
        case lowFrequency
        /// Decibels at the mid frequency.
        case midGain
        /// Hertz: the centre of the mid band.
        case midFrequency
        /// The mid band's sharpness (0.7: about two octaves wide; 10: a sixth of an octave).
        case midQ
        /// Decibels above the high frequency.
        case highGain
        /// Hertz: the high shelf's midpoint (half its gain).
        case highFrequency
    }

    private var low = Biquad()
    private var mid = Biquad()
    private var high = Biquad()

    /// - Thread: control.
    public init() {
        super.init(subtype: "meq3", name: "equalizer", parameters: [
            ParameterInfo(id: 0, name: "low gain", range: -18...18, defaultValue: 0, unit: .decibels),
            ParameterInfo(id: 1, name: "low frequency", range: 20...1000, defaultValue: 120, unit: .hertz),
            ParameterInfo(id: 2, name: "mid gain", range: -18...18, defaultValue: 0, unit: .decibels),
            ParameterInfo(id: 3, name: "mid frequency", range: 100...10_000, defaultValue: 1000, unit: .hertz),
            ParameterInfo(id: 4, name: "mid q", range: 0.1...10, defaultValue: 0.7, unit: .generic),
            ParameterInfo(id: 5, name: "high gain", range: -18...18, defaultValue: 0, unit: .decibels),
            ParameterInfo(id: 6, name: "high frequency", range: 1000...18_000, defaultValue: 6000, unit: .hertz),
        ])
    }

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        (low, mid, high) = (Biquad(), Biquad(), Biquad())
    }

    /// The filters hold no delay line: while a band rings on after its input stopped, the
    /// output stays above silence, which keeps the effect awake; 10 ms of quiet output end it.
    /// - Thread: any (read by `prepare` on control and by `process` on render).
    override var tailFrames: Int { Int(0.01 * sampleRate) }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        low.design(.lowShelf, frequency: values.advance(Parameter.lowFrequency, frames: frames),
                   gain: values.advance(Parameter.lowGain, frames: frames), sampleRate: sampleRate)
        mid.design(.peaking(q: values.advance(Parameter.midQ, frames: frames)),
                   frequency: values.advance(Parameter.midFrequency, frames: frames),
                   gain: values.advance(Parameter.midGain, frames: frames), sampleRate: sampleRate)
        high.design(.highShelf, frequency: values.advance(Parameter.highFrequency, frames: frames),
                    gain: values.advance(Parameter.highGain, frames: frames), sampleRate: sampleRate)
        // Local copies: the loop keeps the filters in registers.
        var low = low, mid = mid, high = high
        for i in 0..<frames {
            let y = high.process(mid.process(low.process(SIMD2(Double(bus.left[i]), Double(bus.right[i])))))
            bus.left[i] = Float(y.x)
            bus.right[i] = Float(y.y)
        }
        (self.low, self.mid, self.high) = (low, mid, high)
    }
}
