import RenderCore

/// A stereo chorus: each side reads a short delay swept by a sine LFO, the sides a quarter
/// cycle apart.
///
/// - Thread: `init`, `prepare` on control; `process` on render.
public final class ChorusNode: EffectNode, @unchecked Sendable {
    public enum Parameter: UInt32, CaseIterable {
        /// LFO rate in hertz.
        case rate = 0
        /// Sweep depth in milliseconds.
        case depth
        /// Centre delay in milliseconds.
        case delay
        case mix
        /// Output level in decibels.
        case level
    }

    private var lines: [DelayLine] = []
    private var lfoPhase: Float = 0

    /// - Thread: control.
    public init() {
        super.init(subtype: "mcho", name: "chorus", parameters: [
            ParameterInfo(id: 0, name: "rate", range: 0.05...5, defaultValue: 0.6, unit: .hertz),
            ParameterInfo(id: 1, name: "depth", range: 0...10, defaultValue: 2.5, unit: .milliseconds),
            ParameterInfo(id: 2, name: "delay", range: 2...30, defaultValue: 12, unit: .milliseconds),
            ParameterInfo(id: 3, name: "mix", range: 0...1, defaultValue: 0.5, unit: .generic),
            ParameterInfo(id: 4, name: "level", range: -24...12, defaultValue: 0, unit: .decibels),
        ])
    }

    deinit { lines.forEach { $0.deallocate() } }

    override func allocate(format: RenderFormat) {
        lines.forEach { $0.deallocate() }
        let length = Int(0.045 * format.sampleRate) + 2
        lines = [DelayLine(length: length), DelayLine(length: length)]
        lfoPhase = 0
    }

    override var tailFrames: Int { lines.reduce(0) { max($0, $1.length) } }

    /// Frames over which the sweep's delay moves in a straight line (its sine is taken at
    /// each stretch's ends: at 5 Hz a stretch is 1/300 of a cycle).
    private static let sweepStretch = 32

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        let rate = values.advance(Parameter.rate, frames: frames)
        let depth = values.advance(Parameter.depth, frames: frames) * 0.001 * sampleRate
        let centre = values.advance(Parameter.delay, frames: frames) * 0.001 * sampleRate
        let level = decibelsToGain(values.advance(Parameter.level, frames: frames))
        let mix = values.advance(Parameter.mix, frames: frames)
        let increment = rate / sampleRate
        /// The two sides' delays at `phase` (the right a quarter cycle on).
        func delays(_ phase: Float) -> (left: Float, right: Float) {
            var other = phase + 0.25
            other = other >= 1 ? other - 1 : other
            return (max(1, centre + depth * sinCycle(phase)), max(1, centre + depth * sinCycle(other)))
        }
        var phase = lfoPhase
        var start = delays(phase)
        lines.withUnsafeMutableBufferPointer { lines in
            var done = 0
            while done < frames {
                let n = min(frames - done, Self.sweepStretch)
                phase += increment * Float(n)
                phase = phase >= 1 ? phase - 1 : phase
                let end = delays(phase)
                let stepLeft = (end.left - start.left) / Float(n), stepRight = (end.right - start.right) / Float(n)
                var delayLeft = start.left, delayRight = start.right
                for i in done..<(done + n) {
                    delayLeft += stepLeft
                    delayRight += stepRight
                    let inLeft = bus.left[i], inRight = bus.right[i]
                    lines[0].write(inLeft)
                    lines[1].write(inRight)
                    let wetLeft = lines[0].read(delay: delayLeft)
                    let wetRight = lines[1].read(delay: delayRight)
                    bus.left[i] = (inLeft + mix * (wetLeft - inLeft)) * level
                    bus.right[i] = (inRight + mix * (wetRight - inRight)) * level
                }
                start = end
                done += n
            }
        }
        lfoPhase = phase
    }
}
