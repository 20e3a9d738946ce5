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
    /// Scratch for one block: the combs' mono input, and each side's comb sum.
    private var input: UnsafeMutablePointer<Float>?
    private var wetLeft: UnsafeMutablePointer<Float>?
    private var wetRight: UnsafeMutablePointer<Float>?

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
        input?.deallocate()
        wetLeft?.deallocate()
        wetRight?.deallocate()
        combStore = nil
        input = nil
        wetLeft = nil
        wetRight = nil
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
        input = .allocate(capacity: format.maxFrames)
        wetLeft = .allocate(capacity: format.maxFrames)
        wetRight = .allocate(capacity: format.maxFrames)
    }

    override var tailFrames: Int { combs.reduce(0) { max($0, $1.length) } }

    override func render(_ bus: AudioBus, frames: Int, host: HostSync) {
        let feedback = values.advance(Parameter.roomSize, frames: frames) * 0.28 + 0.7
        let damp = values.advance(Parameter.damping, frames: frames) * 0.4
        let wet = values.advance(Parameter.wet, frames: frames) * 3
        let dry = values.advance(Parameter.dry, frames: frames)
        let width = values.advance(Parameter.width, frames: frames)
        let wet1 = wet * (width / 2 + 0.5), wet2 = wet * ((1 - width) / 2)
        let store = combStore!, input = input!, wetLeft = wetLeft!, wetRight = wetRight!
        for i in 0..<frames {
            input[i] = (bus.left[i] + bus.right[i]) * 0.015
        }
        wetLeft.update(repeating: 0, count: frames)
        wetRight.update(repeating: 0, count: frames)
        combs.withUnsafeMutableBufferPointer { combs in
            // Four combs at a time over the whole block: their state stays in registers and
            // their four feedback loops overlap.
            for first in stride(from: 0, to: 16, by: 4) {
                Self.fourCombs(combs.baseAddress! + first, store + first, input, into: first < 8 ? wetLeft : wetRight,
                               frames, feedback, damp)
            }
        }
        allpasses.withUnsafeMutableBufferPointer { allpasses in
            Self.allpasses(allpasses.baseAddress!, wetLeft, frames)
            Self.allpasses(allpasses.baseAddress! + 4, wetRight, frames)
        }
        for i in 0..<frames {
            let outLeft = wetLeft[i], outRight = wetRight[i]
            bus.left[i] = outLeft * wet1 + outRight * wet2 + bus.left[i] * dry
            bus.right[i] = outRight * wet1 + outLeft * wet2 + bus.right[i] * dry
        }
    }

    /// Four damped combs over `frames` frames of `input`, their outputs added to `sum`.
    private static func fourCombs(_ lines: UnsafeMutablePointer<DelayLine>, _ stores: UnsafeMutablePointer<Float>,
                                  _ input: UnsafePointer<Float>, into sum: UnsafeMutablePointer<Float>, _ frames: Int,
                                  _ feedback: Float, _ damp: Float) {
        var l0 = lines[0], l1 = lines[1], l2 = lines[2], l3 = lines[3]
        var s0 = stores[0], s1 = stores[1], s2 = stores[2], s3 = stores[3]
        let undamped = 1 - damp
        @inline(__always) func comb(_ line: inout DelayLine, _ state: inout Float, _ x: Float) -> Float {
            let output = line.oldest
            state = flushTiny(output * undamped + state * damp)
            line.write(x + state * feedback)
            return output
        }
        for i in 0..<frames {
            let x = input[i]
            sum[i] += (comb(&l0, &s0, x) + comb(&l1, &s1, x)) + (comb(&l2, &s2, x) + comb(&l3, &s3, x))
        }
        (lines[0], lines[1], lines[2], lines[3]) = (l0, l1, l2, l3)
        (stores[0], stores[1], stores[2], stores[3]) = (s0, s1, s2, s3)
    }

    /// One side's four all-passes in series over `frames` frames of `signal`, in place.
    private static func allpasses(_ lines: UnsafeMutablePointer<DelayLine>, _ signal: UnsafeMutablePointer<Float>,
                                  _ frames: Int) {
        var l0 = lines[0], l1 = lines[1], l2 = lines[2], l3 = lines[3]
        @inline(__always) func allpass(_ line: inout DelayLine, _ input: Float) -> Float {
            let delayed = line.oldest
            line.write(flushTiny(input + delayed * 0.5))
            return delayed - input
        }
        for i in 0..<frames {
            signal[i] = allpass(&l3, allpass(&l2, allpass(&l1, allpass(&l0, signal[i]))))
        }
        (lines[0], lines[1], lines[2], lines[3]) = (l0, l1, l2, l3)
    }
}
