import RenderCore

/// A Freeverb-style stereo reverb: eight damped comb filters and four all-passes per side.
///
/// - Thread: `init`, `prepare` on control; `process` on render.
public final class ReverbNode: EffectNode, @unchecked Sendable {
    public enum Parameter: UInt32, CaseIterable {
        case roomSize = 0, damping, wet, dry, width
    }

    private static let combTunings = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617]
    private static let allpassTunings = [556, 441, 341, 225]
    private static let stereoSpread = 23

    private var combs: [DelayLine] = []
    private var allpasses: [DelayLine] = []
    private var combStore: UnsafeMutablePointer<Float>?

    /// - Thread: control.
    public init() {
        super.init(subtype: "mrev", name: "reverb", parameters: [
            ParameterInfo(id: 0, name: "room size", range: 0...1, defaultValue: 0.7, unit: .generic),
            ParameterInfo(id: 1, name: "damping", range: 0...1, defaultValue: 0.5, unit: .generic),
            ParameterInfo(id: 2, name: "wet", range: 0...1, defaultValue: 0.15, unit: .generic),
            ParameterInfo(id: 3, name: "dry", range: 0...1, defaultValue: 1, unit: .generic),
            ParameterInfo(id: 4, name: "width", range: 0...1, defaultValue: 1, unit: .generic),
        ])
    }

    deinit { release() }

    private func release() {
        combs.forEach { $0.deallocate() }
        allpasses.forEach { $0.deallocate() }
        combStore?.deallocate()
        combs = []
        allpasses = []
    }

    override func allocate(format: RenderFormat) {
        release()
        let scale = format.sampleRate / 44_100
        for side in 0..<2 {
            let spread = side * Self.stereoSpread
            combs += Self.combTunings.map { DelayLine(length: Int(Double($0 + spread) * scale)) }
            allpasses += Self.allpassTunings.map { DelayLine(length: Int(Double($0 + spread) * scale)) }
        }
        combStore = .allocate(capacity: combs.count)
        combStore!.initialize(repeating: 0, count: combs.count)
    }

    override var tailFrames: Int { combs.reduce(0) { max($0, $1.length) } }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        let feedback = values.advance(Parameter.roomSize, frames: frames) * 0.28 + 0.7
        let damp = values.advance(Parameter.damping, frames: frames) * 0.4
        let wet = values.advance(Parameter.wet, frames: frames) * 3
        let dry = values.advance(Parameter.dry, frames: frames)
        let width = values.advance(Parameter.width, frames: frames)
        let wet1 = wet * (width / 2 + 0.5), wet2 = wet * ((1 - width) / 2)
        let store = combStore!
        combs.withUnsafeMutableBufferPointer { combs in
            allpasses.withUnsafeMutableBufferPointer { allpasses in
                for i in 0..<frames {
                    let inLeft = bus.left[i], inRight = bus.right[i]
                    let input = (inLeft + inRight) * 0.015
                    var outLeft: Float = 0, outRight: Float = 0
                    for c in 0..<8 {
                        outLeft += comb(&combs[c], &store[c], input, feedback, damp)
                        outRight += comb(&combs[c + 8], &store[c + 8], input, feedback, damp)
                    }
                    for a in 0..<4 {
                        outLeft = allpass(&allpasses[a], outLeft)
                        outRight = allpass(&allpasses[a + 4], outRight)
                    }
                    bus.left[i] = outLeft * wet1 + outRight * wet2 + inLeft * dry
                    bus.right[i] = outRight * wet1 + outLeft * wet2 + inRight * dry
                }
            }
        }
    }

    @inline(__always)
    private func comb(_ line: inout DelayLine, _ store: inout Float, _ input: Float, _ feedback: Float, _ damp: Float) -> Float {
        let output = line.oldest
        store = flushTiny(output * (1 - damp) + store * damp)
        line.write(input + store * feedback)
        return output
    }

    @inline(__always)
    private func allpass(_ line: inout DelayLine, _ input: Float) -> Float {
        let delayed = line.oldest
        line.write(flushTiny(input + delayed * 0.5))
        return delayed - input
    }
}
