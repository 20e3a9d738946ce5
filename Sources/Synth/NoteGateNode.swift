import RenderCore

/// A music effect: MIDI notes play the rhythm of the audio that passes through it. As a
/// gate (`duck` 0), the sound opens while any note is held and closes when the last one is
/// released — a pad chopped by the notes of a sequence or a keyboard. As a ducker (`duck`
/// 1), each held note pushes the sound down — sidechain pumping played by a kick's notes.
/// `depth` is how far it closes (1: silence), `attack` and `release` how fast it opens and
/// closes (the time to move 60 dB of the way). Notes take effect on their exact frame.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class NoteGateNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        case attack = 0
        case release
        case depth
        case duck
    }

    public static let descriptorName = "note gate"
    /// Notes held on each channel (note-ons minus note-offs, never below zero).
    private var held = [Int](repeating: 0, count: 16)
    private var heldTotal = 0
    private var gain: Float = 0

    /// - Thread: control.
    public init() {
        super.init(subtype: "mgat", name: Self.descriptorName, kind: .musicEffect, parameters: [
            ParameterInfo(id: 0, name: "attack", range: 0.1...100, defaultValue: 2, unit: .milliseconds),
            ParameterInfo(id: 1, name: "release", range: 1...2000, defaultValue: 80, unit: .milliseconds),
            ParameterInfo(id: 2, name: "depth", range: 0...1, defaultValue: 1, unit: .generic),
            ParameterInfo(id: 3, name: "duck", range: 0...1, defaultValue: 0, unit: .boolean),
        ])
    }

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        for channel in held.indices { held[channel] = 0 }
        heldTotal = 0
        gain = targetGain()
    }

    override func handle(_ event: RenderEvent) {
        let channel = Int(event.channel & 0x0F)
        switch event.kind {
        case .noteOn where event.data2 > 0:
            held[channel] += 1
            heldTotal += 1
        case .noteOn, .noteOff:
            guard held[channel] > 0 else { return }
            held[channel] -= 1
            heldTotal -= 1
        case .controlChange where event.data1 == 120 || event.data1 == 123:
            heldTotal -= held[channel]
            held[channel] = 0
        default:
            return
        }
    }

    override func wake() {
        gain = targetGain()
    }

    /// The gain the held notes ask for.
    private func targetGain() -> Float {
        let depth = values.current(Parameter.depth)
        let open = (heldTotal > 0) != (values.target(Parameter.duck) >= 0.5)
        return open ? 1 : 1 - depth
    }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        _ = values.advance(Parameter.depth, frames: frames)
        let target = targetGain()
        let time = target > gain ? values.current(Parameter.attack) : values.current(Parameter.release)
        let coefficient = sixtyDecibelCoefficient(frames: time * 0.001 * sampleRate)
        for i in 0..<frames {
            gain = target + (gain - target) * coefficient
            bus.left[i] *= gain
            bus.right[i] *= gain
        }
    }
}
