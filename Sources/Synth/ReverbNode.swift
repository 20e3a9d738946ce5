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
    /// The combs are far longer than 4 frames, so four frames of each are read and written
    /// in place at once: turned into four frames of the four combs, whose damping states
    /// run in one vector, and back. Frames up to the first comb's wrap go in such fours,
    /// the rest one at a time; every frame's arithmetic is the one-comb formula.
    private static func fourCombs(_ lines: UnsafeMutablePointer<DelayLine>, _ stores: UnsafeMutablePointer<Float>,
                                  _ input: UnsafePointer<Float>, into sum: UnsafeMutablePointer<Float>, _ frames: Int,
                                  _ feedback: Float, _ damp: Float) {
        let undamped = FloatLanes(SIMD4(repeating: 1 - damp)), damping = FloatLanes(SIMD4(repeating: damp))
        let looped = FloatLanes(SIMD4(repeating: feedback))
        var state = FloatLanes(SIMD4(stores[0], stores[1], stores[2], stores[3]))
        /// One frame of the four combs: their outputs in, what they write out.
        @inline(__always) func step(_ outputs: FloatLanes, _ x: Float) -> FloatLanes {
            state = flushTiny(outputs * undamped + state * damping)
            return FloatLanes(SIMD4(repeating: x)) + state * looped
        }
        var done = 0
        while done < frames {
            let piece = min(frames - done, lines[0].framesToWrap, lines[1].framesToWrap, lines[2].framesToWrap,
                            lines[3].framesToWrap)
            let p0 = lines[0].current, p1 = lines[1].current, p2 = lines[2].current, p3 = lines[3].current
            var j = 0
            while j &+ 4 <= piece {
                let r0 = FloatLanes(loading: p0 + j), r1 = FloatLanes(loading: p1 + j)
                let r2 = FloatLanes(loading: p2 + j), r3 = FloatLanes(loading: p3 + j)
                let at = sum + done + j
                (FloatLanes(loading: at) + ((r0 + r1) + (r2 + r3))).store(to: at)
                let f = FloatLanes.transposed(r0.vector, r1.vector, r2.vector, r3.vector)
                let x = input + done + j
                let w0 = step(FloatLanes(f.0), x[0]), w1 = step(FloatLanes(f.1), x[1])
                let w2 = step(FloatLanes(f.2), x[2]), w3 = step(FloatLanes(f.3), x[3])
                let c = FloatLanes.transposed(w0.vector, w1.vector, w2.vector, w3.vector)
                FloatLanes(c.0).store(to: p0 + j)
                FloatLanes(c.1).store(to: p1 + j)
                FloatLanes(c.2).store(to: p2 + j)
                FloatLanes(c.3).store(to: p3 + j)
                j &+= 4
            }
            while j < piece {
                let outputs = SIMD4(p0[j], p1[j], p2[j], p3[j])
                sum[done + j] += (outputs[0] + outputs[1]) + (outputs[2] + outputs[3])
                let w = step(FloatLanes(outputs), input[done + j]).vector
                (p0[j], p1[j], p2[j], p3[j]) = (w[0], w[1], w[2], w[3])
                j &+= 1
            }
            for k in 0..<4 { lines[k].advance(by: piece) }
            done += piece
        }
        (stores[0], stores[1], stores[2], stores[3]) = (state.vector[0], state.vector[1], state.vector[2], state.vector[3])
    }

    /// One side's four all-passes in series over `frames` frames of `signal`, in place: each
    /// over the whole block in turn, four frames at a time (a line is longer than 4 frames,
    /// so those four read only what was written before them).
    private static func allpasses(_ lines: UnsafeMutablePointer<DelayLine>, _ signal: UnsafeMutablePointer<Float>,
                                  _ frames: Int) {
        let half = FloatLanes(SIMD4(repeating: 0.5))
        for k in 0..<4 {
            var done = 0
            while done < frames {
                let piece = min(frames - done, lines[k].framesToWrap)
                let line = lines[k].current, block = signal + done
                var j = 0
                while j &+ 4 <= piece {
                    let delayed = FloatLanes(loading: line + j), input = FloatLanes(loading: block + j)
                    flushTiny(input + delayed * half).store(to: line + j)
                    (delayed - input).store(to: block + j)
                    j &+= 4
                }
                while j < piece {
                    let delayed = line[j], input = block[j]
                    line[j] = flushTiny(input + delayed * 0.5)
                    block[j] = delayed - input
                    j &+= 1
                }
                lines[k].advance(by: piece)
                done += piece
            }
        }
    }
}
