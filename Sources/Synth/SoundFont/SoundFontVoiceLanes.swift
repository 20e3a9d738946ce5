import SoundFont

/// Up to four voices rendered together, one per SIMD lane: the cubic interpolation, the
/// filter, the amplitude ramp and the panning run on all lanes at once, so the filter's
/// recursion (the loop's critical path) is shared by four voices. Only for spans where
/// every lane reads inside its sample (no edge; a loop's wrap only as `wrapsInLanes`
/// allows), is not fading and ticks nowhere inside; the voices' state is read before and
/// written back after, so a voice moves between this path and its own
/// (`SoundFontVoice.renderFrames`) at any span.
///
/// - Thread: render.
enum SoundFontVoiceLanes {
    /// How many of the next `count` frames `voice` can render here (0: none): while
    /// frames index-1 … index+2 of each frame lie inside its sample, before its loop wraps
    /// or its sample ends, and within the lanes' reach.
    @inline(__always)
    static func run(_ voice: SoundFontVoice, within count: Int) -> Int {
        guard voice.isActive, !voice.isFading, voice.frames != nil, Int(voice.position) >= voice.start + 1 else { return 0 }
        if wrapsInLanes(voice) { return count }
        let limit = voice.isLooping ? voice.loopEnd : voice.end
        // Frames k with position + k × increment < limit - 3.
        let room = (Double(limit - 3) - voice.position) / voice.increment
        return room > 0 ? min(count, Int(room)) : 0
    }

    /// Whether the lanes take `voice` across its loop's end (the common case): the frames
    /// around the wrap read from the loop's start as `EdgeFrames` has it, and the position
    /// moves back a loop's length. Needs a frame before the loop's start inside the sample
    /// (what the frame after a wrap reads first), and a loop at least twice the increment
    /// (one wrap a frame at most).
    @inline(__always)
    static func wrapsInLanes(_ voice: SoundFontVoice) -> Bool {
        let length = voice.loopEnd - voice.loopStart
        return voice.isLooping && voice.loopStart > voice.start && length >= 4 && voice.increment * 2 <= Double(length)
    }

    /// Frames `voice` renders on its own (`SoundFontVoice.renderFrames`) when it cannot join
    /// the lanes: past its loop's wrap, or the rest of `count` (a fade, the sample's end).
    @inline(__always)
    static func framesAlone(_ voice: SoundFontVoice, within count: Int) -> Int {
        guard voice.isActive, !voice.isFading, voice.isLooping else { return count }
        // At the sample's first frame: until frame index-1 is inside it.
        if Int(voice.position) < voice.start + 1 { return min(count, Int(1 / voice.increment) + 1) }
        // Until frame index-1 of the wrapped position is back inside the loop.
        let past = (Double(voice.loopEnd + 2) - voice.position) / voice.increment
        return min(count, max(1, Int(past) + 1))
    }

    /// Frames one pass of `render` takes at most (the scratch it needs: `scratchFrames`
    /// vectors).
    static let scratchFrames = 64

    /// Renders `count` frames of the voices at `slots` (2…4 of them) into `output`, in
    /// pieces of up to `scratchFrames`: each piece's voice values (interpolated, filtered,
    /// at their amplitude) go to `scratch`, one vector a frame, then `LaneMix` pans and
    /// sends them four frames at a time. Two passes keep the recursive one's state in
    /// registers and mix without a sum across lanes per frame.
    static func render(_ voices: UnsafeMutablePointer<SoundFontVoice>, slots: UnsafePointer<Int>, lanes: Int,
                       frames: SoundFontFrames, output: VoiceOutput, count: Int,
                       scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        if frames.has24Bits {
            render(Taps24.self, voices, slots: slots, lanes: lanes, frames: frames, output: output, count: count, scratch: scratch)
        } else {
            render(Taps16.self, voices, slots: slots, lanes: lanes, frames: frames, output: output, count: count, scratch: scratch)
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

    private static func render<Reader: Taps>(_ reader: Reader.Type, _ voices: UnsafeMutablePointer<SoundFontVoice>,
                                             slots: UnsafePointer<Int>, lanes: Int, frames: SoundFontFrames,
                                             output: VoiceOutput, count: Int, scratch: UnsafeMutablePointer<SIMD4<Float>>) {
        // A missing lane repeats lane 0 with no amplitude: it reads valid frames and adds nothing.
        let v0 = voices[slots[0]], v1 = voices[slots[1]]
        let v2 = voices[slots[lanes > 2 ? 2 : 0]], v3 = voices[slots[lanes > 3 ? 3 : 0]]
        let live = SIMD4<Float>(1, 1, lanes > 2 ? 1 : 0, lanes > 3 ? 1 : 0)
        // Positions count from each lane's first whole frame.
        let first = (Int(v0.position), Int(v1.position), Int(v2.position), Int(v3.position))
        var phase = PhaseLanes(v0.position - Double(first.0), v1.position - Double(first.1),
                               v2.position - Double(first.2), v3.position - Double(first.3))
        let increment = PhaseLanes(v0.increment, v1.increment, v2.increment, v3.increment)
        var amplitude = FloatLanes(SIMD4(v0.amplitude, v1.amplitude, v2.amplitude, v3.amplitude) * live)
        let step = FloatLanes(SIMD4(v0.amplitudeStep, v1.amplitudeStep, v2.amplitudeStep, v3.amplitudeStep) * live)
        // The taps' scale to -1…1 goes with the pan (the filter is linear).
        let scale = live * (1 / SoundFontFrames.tapScale)
        let mix = LaneMix(
            left: SIMD4(v0.panLeft * v0.fadeGain, v1.panLeft * v1.fadeGain, v2.panLeft * v2.fadeGain,
                        v3.panLeft * v3.fadeGain) * scale,
            right: SIMD4(v0.panRight * v0.fadeGain, v1.panRight * v1.fadeGain, v2.panRight * v2.fadeGain,
                         v3.panRight * v3.fadeGain) * scale,
            reverb: SIMD4(v0.reverbSend * v0.fadeGain, v1.reverbSend * v1.fadeGain, v2.reverbSend * v2.fadeGain,
                          v3.reverbSend * v3.fadeGain) * scale,
            chorus: SIMD4(v0.chorusSend * v0.fadeGain, v1.chorusSend * v1.fadeGain, v2.chorusSend * v2.fadeGain,
                          v3.chorusSend * v3.fadeGain) * scale)
        let c0 = v0.filter.coefficients, c1 = v1.filter.coefficients, c2 = v2.filter.coefficients, c3 = v3.filter.coefficients
        let b0 = FloatLanes(SIMD4(c0.b0, c1.b0, c2.b0, c3.b0)), b1 = FloatLanes(SIMD4(c0.b1, c1.b1, c2.b1, c3.b1))
        let b2 = FloatLanes(SIMD4(c0.b2, c1.b2, c2.b2, c3.b2))
        let a1 = FloatLanes(SIMD4(c0.a1, c1.a1, c2.a1, c3.a1)), a2 = FloatLanes(SIMD4(c0.a2, c1.a2, c2.a2, c3.a2))
        // The filter's state in the taps' scale while here.
        let tapScale = SoundFontFrames.tapScale
        var state1 = FloatLanes(SIMD4(v0.filter.state1, v1.filter.state1, v2.filter.state1, v3.filter.state1) * tapScale)
        var state2 = FloatLanes(SIMD4(v0.filter.state2, v1.filter.state2, v2.filter.state2, v3.filter.state2) * tapScale)
        // The same positions as whole numbers, each from its lane's first frame: the frames to
        // read come from these with integer adds and shifts, off the busy vector units.
        let bits = PhaseLanes.fractionBits
        var at = (first.0 << bits | Int(phase.bits[0]), first.1 << bits | Int(phase.bits[1]),
                  first.2 << bits | Int(phase.bits[2]), first.3 << bits | Int(phase.bits[3]))
        let by = (Int(increment.bits[0]), Int(increment.bits[1]), Int(increment.bits[2]), Int(increment.bits[3]))
        let loops = (LaneLoop(v0, by.0, frames), LaneLoop(v1, by.1, frames), LaneLoop(v2, by.2, frames),
                     LaneLoop(v3, by.3, frames))
        /// The cubic of one frame from its taps, at fraction `x`.
        @inline(__always) func cubic(_ ym1: FloatLanes, _ y0: FloatLanes, _ y1: FloatLanes, _ y2: FloatLanes,
                                     _ x: FloatLanes) -> SIMD4<Float> {
            let k1 = 0.5 * (y1 - ym1)
            let k2 = ym1 - 2.5 * y0 + 2 * y1 - 0.5 * y2
            let k3 = 0.5 * (y2 - ym1) + 1.5 * (y0 - y1)
            return (((k3 * x + k2) * x + k1) * x + y0).vector
        }
        var done = 0
        while done < count {
            let piece = min(count - done, scratchFrames)
            var i = 0
            while i < piece {
                // A lane past its loop's end goes back a loop's length (its fraction stays).
                at = (loops.0.wrapped(at.0), loops.1.wrapped(at.1), loops.2.wrapped(at.2), loops.3.wrapped(at.3))
                // (Pairs of `min`: with more than three arguments it takes an array.)
                let clear = min(min(loops.0.framesClear(at.0), loops.1.framesClear(at.1)),
                                min(loops.2.framesClear(at.2), loops.3.framesClear(at.3)), piece - i)
                guard clear > 0 else {
                    // A frame near a lane's loop end: each lane's taps one by one, from the loop's start past its end.
                    let t0 = loops.0.taps(at.0 &>> bits), t1 = loops.1.taps(at.1 &>> bits)
                    let t2 = loops.2.taps(at.2 &>> bits), t3 = loops.3.taps(at.3 &>> bits)
                    let taps = FloatLanes.transposed(t0, t1, t2, t3)
                    at = (at.0 &+ by.0, at.1 &+ by.1, at.2 &+ by.2, at.3 &+ by.3)
                    scratch[i] = cubic(FloatLanes(taps.0), FloatLanes(taps.1), FloatLanes(taps.2), FloatLanes(taps.3),
                                       phase.fraction)
                    phase.advance(by: increment)
                    i += 1
                    continue
                }
                for j in i..<(i + clear) {
                    let taps = Reader.read(frames, at.0 &>> bits, at.1 &>> bits, at.2 &>> bits, at.3 &>> bits)
                    at = (at.0 &+ by.0, at.1 &+ by.1, at.2 &+ by.2, at.3 &+ by.3)
                    scratch[j] = cubic(FloatLanes(taps.before), FloatLanes(taps.at), FloatLanes(taps.after),
                                       FloatLanes(taps.afterNext), phase.fraction)
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
        at = (loops.0.wrapped(at.0), loops.1.wrapped(at.1), loops.2.wrapped(at.2), loops.3.wrapped(at.3))
        for index in 0..<lanes {
            let voice = voices + slots[index]
            voice.pointee.position = Double(position(at, index)) / PhaseLanes.one
            voice.pointee.amplitude = amplitude.vector[index]
            voice.pointee.filter.state1 = state1.vector[index] / tapScale
            voice.pointee.filter.state2 = state2.vector[index] / tapScale
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

/// A lane's loop in the lanes' fixed point (`PhaseLanes.fractionBits`): where its taps start
/// to need the loop's start (two frames before its end), where it wraps, by how much, and
/// its frames as the one-voice path reads them near an edge (`EdgeFrames`). A voice that
/// does not wrap in the lanes (`wrapsInLanes`) never gets to its loop's end here.
///
/// - Thread: render (a plain value).
private struct LaneLoop {
    /// The first whole frame whose taps reach past the loop's end, in fixed point.
    let zone: Int
    /// The loop's end and length in frames (the end `Int.max` when the lane does not wrap).
    let end: Int, length: Int
    /// 1 / the increment in fixed point.
    let perStep: Double
    let edge: EdgeFrames

    @inline(__always)
    init(_ voice: SoundFontVoice, _ increment: Int, _ frames: SoundFontFrames) {
        let bits = Int(PhaseLanes.fractionBits)
        if SoundFontVoiceLanes.wrapsInLanes(voice) {
            (end, length) = (voice.loopEnd, voice.loopEnd - voice.loopStart)
            zone = (voice.loopEnd - 2) << bits
        } else {
            (end, length, zone) = (.max, 0, .max)
        }
        perStep = 1 / Double(max(increment, 1))
        edge = EdgeFrames(frames: frames, first: voice.start, last: voice.end - 1, loopStart: voice.loopStart,
                          loopEnd: voice.loopEnd, looping: voice.isLooping)
    }

    /// `at` back a loop's length once its whole frame is at the loop's end or past it.
    @inline(__always)
    func wrapped(_ at: Int) -> Int {
        at &>> Int(PhaseLanes.fractionBits) >= end ? at &- length &<< Int(PhaseLanes.fractionBits) : at
    }

    /// Frames from `at` on whose taps all lie before the loop's end (one fewer at most: the
    /// count comes from a floating-point quotient, rounded down).
    @inline(__always)
    func framesClear(_ at: Int) -> Int {
        at >= zone ? 0 : Int(min(Double(zone &- at &- 1) * perStep, Double(SoundFontVoiceLanes.scratchFrames)))
    }

    /// The four taps around whole frame `frame` (as `SoundFontFrames.cubicTaps` scales them),
    /// those at the loop's end or past it read from its start.
    @inline(__always)
    func taps(_ frame: Int) -> SIMD4<Float> {
        SIMD4(edge(frame &- 1), edge(frame), edge(frame &+ 1), edge(frame &+ 2)) * SoundFontFrames.tapScale
    }
}
