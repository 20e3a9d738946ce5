import SoundFont
import VoiceLanes
import VoiceLanesAVX2

/// Voices rendered together in vector lanes (`FourVoiceLanes`; eight at once through
/// `EightVoiceLanes` where the processor has AVX2 and FMA): which voices can join them for
/// how many frames, and the copy of each voice into the lanes' `LaneVoice` and back. Only
/// for spans where a voice reads inside its sample (no edge; a loop's wrap only as
/// `LaneVoice.wraps` allows), is not fading and ticks nowhere inside; the voices' state is
/// read before and written back after, so a voice moves between the lanes and its own path
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

    /// Whether the lanes take `voice` across its loop's end (`LaneVoice.wraps`).
    @inline(__always)
    static func wrapsInLanes(_ voice: SoundFontVoice) -> Bool {
        LaneVoice.wraps(isLooping: voice.isLooping, start: voice.start, loopStart: voice.loopStart,
                        loopEnd: voice.loopEnd, increment: voice.increment)
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

    /// Voices the lanes take at once: 8 with AVX2 and FMA, else 4.
    static let width = ProcessorFeatures.hasAVX2AndFMA ? 8 : 4

    /// Frames one pass of the lanes takes at most.
    static let scratchFrames = FourVoiceLanes.scratchFrames

    /// Renders `count` frames of the voices at `slots` (2…`width` of them) into `output`
    /// through the lanes, `lanes` (room for `width`) holding their copies meanwhile and
    /// `scratch` (room for `scratchFrames` × `width` floats) their values.
    static func render(_ voices: UnsafeMutablePointer<SoundFontVoice>, slots: UnsafePointer<Int>, count lanes: Int,
                       copies: UnsafeMutablePointer<LaneVoice>, frames: SoundFontFrames, output: VoiceOutput,
                       frameCount count: Int, scratch: UnsafeMutableRawPointer) {
        for lane in 0..<lanes { copies[lane] = LaneVoice(voices[slots[lane]]) }
        if lanes <= 4 {
            FourVoiceLanes.render(copies, lanes: lanes, frames: frames, output: output, count: count,
                                  scratch: scratch.assumingMemoryBound(to: SIMD4<Float>.self))
        } else if frames.has24Bits {
            // 24-bit fonts are rare: two passes of four or fewer (at least two each).
            let quad = scratch.assumingMemoryBound(to: SIMD4<Float>.self), half = (lanes + 1) / 2
            FourVoiceLanes.render(copies, lanes: half, frames: frames, output: output, count: count, scratch: quad)
            FourVoiceLanes.render(copies + half, lanes: lanes - half, frames: frames, output: output, count: count, scratch: quad)
        } else {
            EightVoiceLanes.render(copies, lanes: lanes, frames: frames, output: output, count: count,
                                   scratch: scratch.assumingMemoryBound(to: SIMD8<Float>.self))
        }
        for lane in 0..<lanes {
            let voice = voices + slots[lane]
            voice.pointee.position = copies[lane].position
            voice.pointee.amplitude = copies[lane].amplitude
            voice.pointee.filter.state1 = copies[lane].state1
            voice.pointee.filter.state2 = copies[lane].state2
        }
    }
}

/// - Thread: render.
extension LaneVoice {
    /// What the lanes need of `voice` for a span (its fade gain in its levels).
    @inline(__always)
    init(_ voice: SoundFontVoice) {
        let fade = voice.fadeGain
        self.init(position: voice.position, increment: voice.increment, amplitude: voice.amplitude,
                  amplitudeStep: voice.amplitudeStep, left: voice.panLeft * fade, right: voice.panRight * fade,
                  reverb: voice.reverbSend * fade, chorus: voice.chorusSend * fade, filter: voice.filter.coefficients,
                  state1: voice.filter.state1, state2: voice.filter.state2, start: voice.start, end: voice.end,
                  loopStart: voice.loopStart, loopEnd: voice.loopEnd, isLooping: voice.isLooping)
    }
}
