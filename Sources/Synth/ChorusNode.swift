import RenderCore
import SynthKernels

/// A stereo chorus: each side reads a short delay swept by a sine LFO, the sides a quarter
/// cycle apart.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class ChorusNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
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

    /// - Thread: control (called by `prepare`).
    override func allocate(format: RenderFormat) {
        lines.forEach { $0.deallocate() }
        let length = Int(0.045 * format.sampleRate) + 2
        lines = [DelayLine(length: length), DelayLine(length: length)]
        lfoPhase = 0
    }

    /// - Thread: any (read by `prepare` on control and by `process` on render).
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
                let left = bus.left + done, right = bus.right + done
                lines[0].write(left, count: n)
                lines[1].write(right, count: n)
                // Frame k reads as `read(delay:)` right after its own write would: at the
                // line's index then, less its delay, stepping 1 - step a frame.
                let lanes = SIMD4<Float>(1, 2, 3, 4)
                func after(_ line: DelayLine) -> SIMD4<Float> { SIMD4(repeating: Float(line.index - n)) + lanes }
                var atLeft = after(lines[0]) - (start.left + stepLeft * lanes)
                var atRight = after(lines[1]) - (start.right + stepRight * lanes)
                let moveLeft = SIMD4<Float>(repeating: 4 * (1 - stepLeft)), moveRight = SIMD4<Float>(repeating: 4 * (1 - stepRight))
                var k = 0
                while k < n {
                    let wetLeft = lines[0].read(at: atLeft), wetRight = lines[1].read(at: atRight)
                    let count = min(4, n - k)
                    let inLeft = Self.four(left + k, count), inRight = Self.four(right + k, count)
                    Self.store((inLeft + mix * (wetLeft - inLeft)) * level, left + k, count)
                    Self.store((inRight + mix * (wetRight - inRight)) * level, right + k, count)
                    atLeft += moveLeft
                    atRight += moveRight
                    k += 4
                }
                start = end
                done += n
            }
        }
        lfoPhase = phase
    }

    /// `count` (1…4) samples from `samples`, zeros after them.
    @inline(__always)
    private static func four(_ samples: UnsafePointer<Float>, _ count: Int) -> SIMD4<Float> {
        if count == 4 { return UnsafeRawPointer(samples).loadUnaligned(as: SIMD4<Float>.self) }
        var values = SIMD4<Float>()
        for lane in 0..<count { values[lane] = samples[lane] }
        return values
    }

    /// Stores the first `count` (1…4) lanes of `values` at `samples`.
    @inline(__always)
    private static func store(_ values: SIMD4<Float>, _ samples: UnsafeMutablePointer<Float>, _ count: Int) {
        if count == 4 { return UnsafeMutableRawPointer(samples).storeBytes(of: values, as: SIMD4<Float>.self) }
        for lane in 0..<count { samples[lane] = values[lane] }
    }
}
