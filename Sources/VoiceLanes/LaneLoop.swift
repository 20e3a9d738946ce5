import SoundFont

/// A lane's loop in the lanes' fixed point (`PhaseLanes.fractionBits`): where its taps start
/// to need the loop's start (two frames before its end), where it wraps, by how much, and
/// its frames as the one-voice path reads them near an edge (`EdgeFrames`). A voice that
/// does not wrap in the lanes (`LaneVoice.wrapsInLanes`) never gets to its loop's end here.
///
/// - Thread: render (a plain value).
@frozen public struct LaneLoop {
    /// The first whole frame whose taps reach past the loop's end, in fixed point.
    public let zone: Int
    /// The loop's end and length in frames (the end `Int.max` when the lane does not wrap).
    public let end: Int, length: Int
    /// 1 / the increment in fixed point.
    public let perStep: Double
    public let edge: EdgeFrames

    @inlinable @inline(__always)
    public init(_ voice: LaneVoice, _ increment: Int, _ frames: SoundFontFrames) {
        let bits = Int(PhaseLanes.fractionBits)
        if voice.wrapsInLanes {
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
    @inlinable @inline(__always)
    public func wrapped(_ at: Int) -> Int {
        at &>> Int(PhaseLanes.fractionBits) >= end ? at &- length &<< Int(PhaseLanes.fractionBits) : at
    }

    /// Frames from `at` on whose taps all lie before the loop's end (one fewer at most: the
    /// count comes from a floating-point quotient, rounded down), up to `limit`.
    @inlinable @inline(__always)
    public func framesClear(_ at: Int, limit: Int) -> Int {
        at >= zone ? 0 : Int(min(Double(zone &- at &- 1) * perStep, Double(limit)))
    }

    /// The four taps around whole frame `frame` (as `SoundFontFrames.cubicTaps` scales them),
    /// those at the loop's end or past it read from its start.
    @inlinable @inline(__always)
    public func taps(_ frame: Int) -> SIMD4<Float> {
        SIMD4(edge(frame &- 1), edge(frame), edge(frame &+ 1), edge(frame &+ 2)) * SoundFontFrames.tapScale
    }
}

/// Four lanes' loops, and their positions in fixed point, as the kernels keep them: in
/// tuples of locals, so the positions stay in integer registers.
public typealias LaneLoops = (LaneLoop, LaneLoop, LaneLoop, LaneLoop)
public typealias LanePositions = (Int, Int, Int, Int)

extension LaneLoop {
    /// Each of `at` back its loop's length once past its loop's end (`wrapped`).
    @inlinable @inline(__always)
    public static func wrapped(_ at: LanePositions, in loops: LaneLoops) -> LanePositions {
        (loops.0.wrapped(at.0), loops.1.wrapped(at.1), loops.2.wrapped(at.2), loops.3.wrapped(at.3))
    }

    /// Frames from `at` on (up to `limit`) whose taps lie before every lane's loop end.
    @inlinable @inline(__always)
    public static func framesClear(_ at: LanePositions, in loops: LaneLoops, limit: Int) -> Int {
        // (Pairs of `min`: with more than three arguments it takes an array.)
        min(min(loops.0.framesClear(at.0, limit: limit), loops.1.framesClear(at.1, limit: limit)),
            min(loops.2.framesClear(at.2, limit: limit), loops.3.framesClear(at.3, limit: limit)))
    }
}
