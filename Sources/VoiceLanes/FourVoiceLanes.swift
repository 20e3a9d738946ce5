import SoundFont

/// Up to four voices rendered together, one per SIMD lane: the cubic interpolation, the
/// filter, the amplitude ramp and the panning run on all lanes at once, so the filter's
/// recursion (the loop's critical path) is shared by four voices. Only for spans where
/// every lane reads inside its sample (no edge; a loop's wrap only as
/// `LaneVoice.wrapsInLanes` allows), is not fading and ticks nowhere inside.
///
/// - Thread: render.
public enum FourVoiceLanes {
    /// Frames one pass of `render` takes at most (the scratch it needs: `scratchFrames`
    /// vectors).
    public static let scratchFrames = 64

    /// Renders `count` frames of `lanes` (2…4 voices) into `output`, in pieces of up to
    /// `scratchFrames`: each piece's voice values (interpolated, filtered, at their
    /// amplitude) go to `scratch`, one vector a frame, then `LaneMix` pans and sends them
    /// four frames at a time. Two passes keep the recursive one's state in registers and mix
    /// without a sum across lanes per frame. Writes each voice's position, amplitude and
    /// filter state back.
    public static func render(_ voices: UnsafeMutablePointer<LaneVoice>, lanes: Int, frames: SoundFontFrames,
                              output: VoiceOutput, count: Int, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        if frames.has24Bits {
            render(Taps24.self, voices, lanes: lanes, frames: frames, output: output, count: count, scratch: scratch)
        } else {
            render(Taps16.self, voices, lanes: lanes, frames: frames, output: output, count: count, scratch: scratch)
        }
    }

    /// How the lanes read their cubic taps: 16-bit frames, or 24 bits with an `sm24` chunk
    /// (one specialized loop each, so 16-bit fonts pay nothing for the other).
    private protocol Taps {
        static func read(_ frames: SoundFontFrames, _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int)
            -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>)
    }

    private enum Taps16: Taps {
        @inline(__always)
        static func read(_ frames: SoundFontFrames, _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int)
            -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
            frames.cubicTaps(i0, i1, i2, i3)
        }
    }

    private enum Taps24: Taps {
        @inline(__always)
        static func read(_ frames: SoundFontFrames, _ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int)
            -> (before: SIMD4<Float>, at: SIMD4<Float>, after: SIMD4<Float>, afterNext: SIMD4<Float>) {
            frames.cubicTaps24(i0, i1, i2, i3)
        }
    }

    private static func render<Reader: Taps>(_ reader: Reader.Type, _ voices: UnsafeMutablePointer<LaneVoice>,
                                             lanes: Int, frames: SoundFontFrames,
                                             output: VoiceOutput, count: Int, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        // A missing lane repeats lane 0 with no amplitude: it reads valid frames and adds nothing.
        let v0 = voices[0], v1 = voices[1], v2 = voices[lanes > 2 ? 2 : 0], v3 = voices[lanes > 3 ? 3 : 0]
        let live = SIMD4<Float>(1, 1, lanes > 2 ? 1 : 0, lanes > 3 ? 1 : 0)
        // Positions count from each lane's first whole frame.
        let first = (Int(v0.position), Int(v1.position), Int(v2.position), Int(v3.position))
        var phase = PhaseLanes(v0.position - Double(first.0), v1.position - Double(first.1),
                               v2.position - Double(first.2), v3.position - Double(first.3))
        let increment = PhaseLanes(v0.increment, v1.increment, v2.increment, v3.increment)
        var amplitude = FloatLanes(SIMD4(v0.amplitude, v1.amplitude, v2.amplitude, v3.amplitude) * live)
        let step = FloatLanes(SIMD4(v0.amplitudeStep, v1.amplitudeStep, v2.amplitudeStep, v3.amplitudeStep) * live)
        // The taps' scale to -1…1 goes with the levels (the filter is linear).
        let scale = live * (1 / SoundFontFrames.tapScale)
        let mix = LaneMix(left: SIMD4(v0.left, v1.left, v2.left, v3.left) * scale,
                          right: SIMD4(v0.right, v1.right, v2.right, v3.right) * scale,
                          reverb: SIMD4(v0.reverb, v1.reverb, v2.reverb, v3.reverb) * scale,
                          chorus: SIMD4(v0.chorus, v1.chorus, v2.chorus, v3.chorus) * scale)
        let b0 = FloatLanes(SIMD4(v0.b0, v1.b0, v2.b0, v3.b0)), b1 = FloatLanes(SIMD4(v0.b1, v1.b1, v2.b1, v3.b1))
        let b2 = FloatLanes(SIMD4(v0.b2, v1.b2, v2.b2, v3.b2))
        let a1 = FloatLanes(SIMD4(v0.a1, v1.a1, v2.a1, v3.a1)), a2 = FloatLanes(SIMD4(v0.a2, v1.a2, v2.a2, v3.a2))
        // The filter's state in the taps' scale while here.
        let tapScale = SoundFontFrames.tapScale
        var state1 = FloatLanes(SIMD4(v0.state1, v1.state1, v2.state1, v3.state1) * tapScale)
        var state2 = FloatLanes(SIMD4(v0.state2, v1.state2, v2.state2, v3.state2) * tapScale)
        // The same positions as whole numbers, each from its lane's first frame: the frames to
        // read come from these with integer adds and shifts, off the busy vector units.
        let bits = PhaseLanes.fractionBits
        var at = (first.0 << bits | Int(phase.bits[0]), first.1 << bits | Int(phase.bits[1]),
                  first.2 << bits | Int(phase.bits[2]), first.3 << bits | Int(phase.bits[3]))
        let by = (Int(increment.bits[0]), Int(increment.bits[1]), Int(increment.bits[2]), Int(increment.bits[3]))
        let loops = (LaneLoop(v0, by.0, frames), LaneLoop(v1, by.1, frames), LaneLoop(v2, by.2, frames),
                     LaneLoop(v3, by.3, frames))
        var done = 0
        while done < count {
            let piece = min(count - done, scratchFrames)
            var i = 0
            while i < piece {
                // A lane past its loop's end goes back a loop's length (its fraction stays).
                at = LaneLoop.wrapped(at, in: loops)
                let clear = min(LaneLoop.framesClear(at, in: loops, limit: scratchFrames), piece - i)
                guard clear > 0 else {
                    // A frame near a lane's loop end: each lane's taps one by one, from the loop's start past its end.
                    let t0 = loops.0.taps(at.0 &>> bits), t1 = loops.1.taps(at.1 &>> bits)
                    let t2 = loops.2.taps(at.2 &>> bits), t3 = loops.3.taps(at.3 &>> bits)
                    let taps = FloatLanes.transposed(t0, t1, t2, t3)
                    at = (at.0 &+ by.0, at.1 &+ by.1, at.2 &+ by.2, at.3 &+ by.3)
                    scratch[i] = FloatLanes.cubic(FloatLanes(taps.0), FloatLanes(taps.1), FloatLanes(taps.2),
                                                  FloatLanes(taps.3), phase.fraction).vector
                    phase.advance(by: increment)
                    i += 1
                    continue
                }
                for j in i..<(i + clear) {
                    let taps = Reader.read(frames, at.0 &>> bits, at.1 &>> bits, at.2 &>> bits, at.3 &>> bits)
                    at = (at.0 &+ by.0, at.1 &+ by.1, at.2 &+ by.2, at.3 &+ by.3)
                    scratch[j] = FloatLanes.cubic(FloatLanes(taps.before), FloatLanes(taps.at), FloatLanes(taps.after),
                                                  FloatLanes(taps.afterNext), phase.fraction).vector
                    phase.advance(by: increment)
                }
                i += clear
            }
            // The filter and the amplitude over the piece: the recursion alone in its loop.
            // Frame 0 as the transposed direct form II has it; then each output is the
            // terms of the inputs and the older state first, the previous output's last.
            var input = FloatLanes(scratch[0])
            var filtered = b0 * input + state1
            var older = state2
            amplitude += step
            scratch[0] = (filtered * amplitude).vector
            for i in 1..<piece {
                let previous = input
                input = FloatLanes(scratch[i])
                let next = (b0 * input + b1 * previous + older) - a1 * filtered
                older = b2 * previous - a2 * filtered
                filtered = next
                amplitude += step
                scratch[i] = (filtered * amplitude).vector
            }
            state1 = (b1 * input + older) - a1 * filtered
            state2 = b2 * input - a2 * filtered
            mix.add(scratch, frames: piece, into: output.advanced(by: done))
            done += piece
        }
        at = LaneLoop.wrapped(at, in: loops)
        for index in 0..<lanes {
            voices[index].position = Double(position(at, index)) / PhaseLanes.one
            voices[index].amplitude = amplitude.vector[index]
            voices[index].state1 = state1.vector[index] / tapScale
            voices[index].state2 = state2.vector[index] / tapScale
        }
    }

    /// Lane `lane`'s position in fixed point.
    @inline(__always)
    private static func position(_ at: (Int, Int, Int, Int), _ lane: Int) -> Int {
        switch lane {
        case 0: at.0
        case 1: at.1
        case 2: at.2
        default: at.3
        }
    }
}
