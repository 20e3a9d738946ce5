import RenderCore
import Synchronization
import SynthKernels

/// A mixer strip: the fader, the balance, mute and solo of one instrument's (or one bus's)
/// sound, placed in the graph where the patch routes it (`piano -> piano-strip -> out`).
///
/// `pan` is a stereo balance with a constant-power law: centred, the sound passes as the
/// instrument made it; towards one side the other channel falls (−5.3 dB halfway), hard
/// left keeps only the left channel. Solo is shared by every strip of one `StripSoloGroup`
/// (the daemon's strips share one): while any strip is soloed, the others are silent.
/// Every change glides over a chunk, so moving, muting or soloing never clicks.
///
/// Two sends, `send a` and `send b`, feed the strip's send outputs of those names — post
/// fader, as a console's aux sends: they follow the gain, the pan, mute and solo — each at its
/// own level (−60 dB, the default, is off), for buses such as a shared reverb
/// (`{from: piano-strip, output: send a, to: hall}`).
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class MixerStripNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Decibels.
        case gain = 0
        /// −1 (left) … 1 (right).
        case pan
        case mute
        case solo
        /// Decibels of the strip's output sent to `send a` / `send b` (−60: off).
        case sendA
        case sendB
    }

    /// The names of the send outputs, in order (`Parameter.sendA`, `.sendB`).
    public static let sendOutputNames = ["send a", "send b"]

    public static let descriptorName = "mixer strip"
    private let soloGroup: StripSoloGroup
    /// Whether this strip counts in its group as soloed (render thread).
    private var countedAsSoloed = false
    private var leftGain: Float = 1
    private var rightGain: Float = 1
    /// The send levels reached, as gains (render thread).
    private var sendGains = SIMD2<Float>(0, 0)

    /// - Parameter soloGroup: the strips whose solo this one follows (default: a group of its own).
    /// - Thread: control.
    public init(soloGroup: StripSoloGroup = StripSoloGroup()) {
        self.soloGroup = soloGroup
        super.init(subtype: "mstr", name: Self.descriptorName, parameters: [
            ParameterInfo(id: 0, name: "gain", range: -60...12, defaultValue: 0, unit: .decibels),
            ParameterInfo(id: 1, name: "pan", range: -1...1, defaultValue: 0, unit: .generic),
            ParameterInfo(id: 2, name: "mute", range: 0...1, defaultValue: 0, unit: .boolean),
            ParameterInfo(id: 3, name: "solo", range: 0...1, defaultValue: 0, unit: .boolean),
            ParameterInfo(id: 4, name: "send a", range: -60...6, defaultValue: -60, unit: .decibels),
            ParameterInfo(id: 5, name: "send b", range: -60...6, defaultValue: -60, unit: .decibels),
        ], sendOutputs: Self.sendOutputNames)
    }

    deinit {
        if countedAsSoloed { soloGroup.soloedStrips.subtract(1, ordering: .relaxed) }
    }

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        (leftGain, rightGain) = targetGains()
        sendGains = targetSendGains()
    }

    /// The send levels the parameters ask for now, as gains.
    private func targetSendGains() -> SIMD2<Float> {
        SIMD2(sendGain(.sendA), sendGain(.sendB))
    }

    /// The channel gains the parameters ask for now.
    private func targetGains() -> (Float, Float) {
        let soloed = values.target(Parameter.solo) >= 0.5
        if soloed != countedAsSoloed {
            countedAsSoloed = soloed
            soloGroup.soloedStrips.add(soloed ? 1 : -1, ordering: .relaxed)
        }
        let silenced = values.target(Parameter.mute) >= 0.5
            || (!soloed && soloGroup.soloedStrips.load(ordering: .relaxed) > 0)
        guard !silenced else { return (0, 0) }
        let level = decibelsToGain(values.current(Parameter.gain))
        // The constant-power law's cos and sin of (pan + 1)·π/4, scaled so the centre is unity;
        // the side the sound moves to stays at unity.
        let pan = values.current(Parameter.pan), root2 = Float(2).squareRoot()
        let left = pan <= 0 ? 1 : root2 * sinQuarter((1 - pan) / 2)
        let right = pan >= 0 ? 1 : root2 * sinQuarter((1 + pan) / 2)
        return (level * left, level * right)
    }

    override func wake() {
        (leftGain, rightGain) = targetGains()
        sendGains = targetSendGains()
    }

    /// The strip, then what it sends: each send output gets the strip's output at its level.
    override func render(_ bus: AudioBus, sends: UnsafeBufferPointer<AudioBus>, frames: Int, host: HostSync) {
        render(bus, frames: frames, host: host)
        guard !sends.isEmpty else { return }
        _ = values.advance(Parameter.sendA, frames: frames)
        _ = values.advance(Parameter.sendB, frames: frames)
        let target = targetSendGains()
        let step = (target - sendGains) / Float(frames)
        for k in 0..<min(sends.count, 2) where sendGains[k] > 0 || target[k] > 0 {
            let send = sends[k]
            for i in 0..<frames {
                let gain = sendGains[k] + step[k] * Float(i + 1)
                send.left[i] += bus.left[i] * gain
                send.right[i] += bus.right[i] * gain
            }
        }
        sendGains = target
    }

    /// A send's level now, as a gain (−60 dB and below: off).
    private func sendGain(_ parameter: Parameter) -> Float {
        let level = values.current(parameter)
        return level <= -60 ? 0 : decibelsToGain(level)
    }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        _ = values.advance(Parameter.gain, frames: frames)
        _ = values.advance(Parameter.pan, frames: frames)
        let (left, right) = targetGains()
        let stepLeft = (left - leftGain) / Float(frames), stepRight = (right - rightGain) / Float(frames)
        for i in 0..<frames {
            bus.left[i] *= leftGain + stepLeft * Float(i + 1)
            bus.right[i] *= rightGain + stepRight * Float(i + 1)
        }
        leftGain = left
        rightGain = right
    }
}

/// The strips whose solo buttons act together: while one is soloed, the others fall silent.
///
/// - Thread: any (an atomic counter, written by the render thread).
public final class StripSoloGroup: Sendable {
    /// How many strips of the group are soloed.
    let soloedStrips = Atomic<Int>(0)

    public init() {}
}
