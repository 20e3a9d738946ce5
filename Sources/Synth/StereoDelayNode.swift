import RenderCore

/// A stereo feedback delay, straight or ping-pong, with its time in seconds or synced to
/// the host tempo in beats. Time changes glide, so they never click.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class StereoDelayNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Seconds (when not synced).
        case time = 0
        /// 1: the time is `beats` quarter notes at the host tempo.
        case sync
        case beats
        case feedback
        case mix
        /// 1: echoes alternate between left and right.
        case pingPong
    }

    public static let maxSeconds: Float = 4
    private var lines: [DelayLine] = []
    private var delayFrames: Float = 0

    /// - Thread: control.
    public init() {
        super.init(subtype: "mdly", name: "stereo delay", parameters: [
            ParameterInfo(id: 0, name: "time", range: 0.001...Self.maxSeconds, defaultValue: 0.375, unit: .seconds),
            ParameterInfo(id: 1, name: "sync", range: 0...1, defaultValue: 0, unit: .boolean),
            ParameterInfo(id: 2, name: "beats", range: 0.0625...8, defaultValue: 0.75, unit: .beats),
            ParameterInfo(id: 3, name: "feedback", range: 0...0.95, defaultValue: 0.35, unit: .generic),
            ParameterInfo(id: 4, name: "mix", range: 0...1, defaultValue: 0.3, unit: .generic),
            ParameterInfo(id: 5, name: "ping-pong", range: 0...1, defaultValue: 1, unit: .boolean),
        ])
    }

    deinit { lines.forEach { $0.deallocate() } }

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        lines.forEach { $0.deallocate() }
        let length = Int(Double(Self.maxSeconds) * format.sampleRate) + 2
        lines = [DelayLine(length: length), DelayLine(length: length)]
        delayFrames = 0
    }

    /// The delay in frames the parameters ask for at `host`'s tempo.
    private func targetFrames(host: HostSync) -> Float {
        let seconds = values.target(Parameter.sync) >= 0.5
            ? values.target(Parameter.beats) * Float(host.secondsPerBeat)
            : values.current(Parameter.time)
        return min(max(seconds * sampleRate, 1), Float(lines[0].length - 2))
    }

    /// - Thread: any (read by `prepare` on control and by `process` on render).
    override var tailFrames: Int { lines.reduce(0) { max($0, $1.length) } }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        _ = values.advance(Parameter.time, frames: frames)
        let target = targetFrames(host: host)
        // Glide: a fresh delay jumps, a running one moves a quarter of the way per chunk.
        let start = delayFrames == 0 ? target : delayFrames
        let end = start + (target - start) * (delayFrames == 0 ? 1 : 0.25)
        delayFrames = end
        let step = (end - start) / Float(frames)
        let feedback = values.advance(Parameter.feedback, frames: frames)
        let mix = values.advance(Parameter.mix, frames: frames)
        let pingPong = values.target(Parameter.pingPong) >= 0.5
        lines.withUnsafeMutableBufferPointer { lines in
            for i in 0..<frames {
                let delay = start + step * Float(i + 1)
                let echoLeft = lines[0].read(delay: delay), echoRight = lines[1].read(delay: delay)
                let inLeft = bus.left[i], inRight = bus.right[i]
                if pingPong {
                    lines[0].write(flushTiny((inLeft + inRight) * 0.5 + echoRight * feedback))
                    lines[1].write(flushTiny(echoLeft * feedback))
                } else {
                    lines[0].write(flushTiny(inLeft + echoLeft * feedback))
                    lines[1].write(flushTiny(inRight + echoRight * feedback))
                }
                bus.left[i] = inLeft + mix * echoLeft
                bus.right[i] = inRight + mix * echoRight
            }
        }
    }
}
