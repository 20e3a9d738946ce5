import RenderCore
import VoiceLanes

/// A Freeverb-style stereo reverb: eight damped comb filters and four all-passes per side.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class ReverbNode: EffectNode, @unchecked Sendable {
    /// - Thread: any (a plain value).
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

    /// - Thread: control (called by `prepare`).
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

    /// - Thread: any (read by `prepare` on control and by `process` on render).
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
            Self.combs(combs.baseAddress!, store, input, left: wetLeft, right: wetRight, frames, feedback, damp)
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

    /// The sixteen damped combs over `frames` frames of `input`, the first eight's outputs
    /// added to `left`, the others' to `right`. Each comb's damping is a recursion from frame
    /// to frame, so they go four combs to a vector, the four vectors side by side four frames
    /// at a time: their recursions overlap instead of waiting on each other. The combs are
    /// far longer than 4 frames, so four frames of each are read and written in place at
    /// once, turned into four frames of four combs and back. Frames up to the first comb's
    /// wrap go in such fours, the rest one at a time; every frame's arithmetic is the
    /// one-comb formula.
    private static func combs(_ lines: UnsafeMutablePointer<DelayLine>, _ stores: UnsafeMutablePointer<Float>,
                              _ input: UnsafePointer<Float>, left: UnsafeMutablePointer<Float>,
                              right: UnsafeMutablePointer<Float>, _ frames: Int, _ feedback: Float, _ damp: Float) {
        let undamped = FloatLanes(SIMD4(repeating: 1 - damp)), damping = FloatLanes(SIMD4(repeating: damp))
        let looped = FloatLanes(SIMD4(repeating: feedback))
        func loadState(_ group: Int) -> FloatLanes { FloatLanes(loading: stores + 4 * group) }
        var states = (loadState(0), loadState(1), loadState(2), loadState(3))
        /// One frame of four combs: their outputs in, what they write out.
        @inline(__always) func step(_ state: inout FloatLanes, _ outputs: FloatLanes, _ x: FloatLanes) -> FloatLanes {
            state = flushTiny(outputs * undamped + state * damping)
            return x + state * looped
        }
        /// Frames `at ..< at + 4` of the four combs from `first` (their lines' `current` in
        /// `p`), their outputs added to `sum`.
        @inline(__always) func fourFrames(_ p: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ first: Int,
                                          _ state: inout FloatLanes, _ at: Int,
                                          _ x: (FloatLanes, FloatLanes, FloatLanes, FloatLanes), _ sum: UnsafeMutablePointer<Float>) {
            let p0 = p[first], p1 = p[first + 1], p2 = p[first + 2], p3 = p[first + 3]
            let r0 = FloatLanes(loading: p0 + at), r1 = FloatLanes(loading: p1 + at)
            let r2 = FloatLanes(loading: p2 + at), r3 = FloatLanes(loading: p3 + at)
            (FloatLanes(loading: sum) + ((r0 + r1) + (r2 + r3))).store(to: sum)
            let f = FloatLanes.transposed(r0.vector, r1.vector, r2.vector, r3.vector)
            let w0 = step(&state, FloatLanes(f.0), x.0), w1 = step(&state, FloatLanes(f.1), x.1)
            let w2 = step(&state, FloatLanes(f.2), x.2), w3 = step(&state, FloatLanes(f.3), x.3)
            let c = FloatLanes.transposed(w0.vector, w1.vector, w2.vector, w3.vector)
            FloatLanes(c.0).store(to: p0 + at)
            FloatLanes(c.1).store(to: p1 + at)
            FloatLanes(c.2).store(to: p2 + at)
            FloatLanes(c.3).store(to: p3 + at)
        }
        /// One frame of the four combs from `first`.
        @inline(__always) func oneFrame(_ p: UnsafeMutablePointer<UnsafeMutablePointer<Float>>, _ first: Int,
                                        _ state: inout FloatLanes, _ at: Int, _ x: FloatLanes, _ sum: UnsafeMutablePointer<Float>) {
            let p0 = p[first], p1 = p[first + 1], p2 = p[first + 2], p3 = p[first + 3]
            let outputs = SIMD4(p0[at], p1[at], p2[at], p3[at])
            sum.pointee += (outputs[0] + outputs[1]) + (outputs[2] + outputs[3])
            let w = step(&state, FloatLanes(outputs), x).vector
            (p0[at], p1[at], p2[at], p3[at]) = (w[0], w[1], w[2], w[3])
        }
        withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: 16) { current in
            let p = current.baseAddress!
            var done = 0
            while done < frames {
                var piece = frames - done
                for k in 0..<16 {
                    piece = min(piece, lines[k].framesToWrap)
                    p[k] = lines[k].current
                }
                var j = 0
                while j &+ 4 <= piece {
                    let l = left + done + j, r = right + done + j
                    // Each frame's input, the same for all the combs.
                    let i4 = input + done + j
                    let x = (FloatLanes(SIMD4(repeating: i4[0])), FloatLanes(SIMD4(repeating: i4[1])),
                             FloatLanes(SIMD4(repeating: i4[2])), FloatLanes(SIMD4(repeating: i4[3])))
                    fourFrames(p, 0, &states.0, j, x, l)
                    fourFrames(p, 4, &states.1, j, x, l)
                    fourFrames(p, 8, &states.2, j, x, r)
                    fourFrames(p, 12, &states.3, j, x, r)
                    j &+= 4
                }
                while j < piece {
                    let x = FloatLanes(SIMD4(repeating: input[done + j])), l = left + done + j, r = right + done + j
                    oneFrame(p, 0, &states.0, j, x, l)
                    oneFrame(p, 4, &states.1, j, x, l)
                    oneFrame(p, 8, &states.2, j, x, r)
                    oneFrame(p, 12, &states.3, j, x, r)
                    j &+= 1
                }
                for k in 0..<16 { lines[k].advance(by: piece) }
                done += piece
            }
        }
        states.0.store(to: stores)
        states.1.store(to: stores + 4)
        states.2.store(to: stores + 8)
        states.3.store(to: stores + 12)
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
