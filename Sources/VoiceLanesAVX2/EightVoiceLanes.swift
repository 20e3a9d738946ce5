#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
import SoundFont
import VoiceLanes

/// Five to eight voices rendered together, one per lane of a 256-bit AVX register: the
/// work of `FourVoiceLanes` for twice the voices in about the same instructions. The taps
/// are read and the outputs mixed a quad of lanes at a time as `FourVoiceLanes` does; the
/// cubic, the filter's recursion and the amplitude run on all eight lanes, with fused
/// multiply-adds. This module alone is compiled for AVX2 and FMA (Package.swift); nothing
/// in it runs unless `ProcessorFeatures.hasAVX2AndFMA`.
///
/// - Thread: render.
public enum EightVoiceLanes {
    /// Renders `count` frames of `lanes` (5…8 voices, 16-bit frames) into `output`, in
    /// pieces of up to `FourVoiceLanes.scratchFrames` (`scratch`: as many vectors of eight),
    /// as `FourVoiceLanes.render` does, and writes each voice's position, amplitude and
    /// filter state back.
    public static func render(_ voices: UnsafeMutablePointer<LaneVoice>, lanes: Int, frames: SoundFontFrames,
                              output: VoiceOutput, count: Int, scratch: UnsafeMutablePointer<SIMD8<Float>>) {
        #if arch(x86_64)
        renderEight(voices, lanes: lanes, frames: frames, output: output, count: count, scratch: scratch)
        #else
        preconditionFailure("EightVoiceLanes runs only where ProcessorFeatures.hasAVX2AndFMA (x86-64)")
        #endif
    }
}

#if arch(x86_64)
extension EightVoiceLanes {
    private static func renderEight(_ voices: UnsafeMutablePointer<LaneVoice>, lanes: Int, frames: SoundFontFrames,
                                    output: VoiceOutput, count: Int, scratch: UnsafeMutablePointer<SIMD8<Float>>) {
        // A missing lane repeats lane 0 with no amplitude: it reads valid frames and adds nothing.
        let v0 = voices[0], v1 = voices[1], v2 = voices[2], v3 = voices[3], v4 = voices[4]
        let v5 = voices[lanes > 5 ? 5 : 0], v6 = voices[lanes > 6 ? 6 : 0], v7 = voices[lanes > 7 ? 7 : 0]
        let liveHigh = SIMD4<Float>(1, lanes > 5 ? 1 : 0, lanes > 6 ? 1 : 0, lanes > 7 ? 1 : 0)
        let live = EightLanes(SIMD4(repeating: 1), liveHigh)
        // Positions count from each lane's first whole frame.
        let firstLow = (Int(v0.position), Int(v1.position), Int(v2.position), Int(v3.position))
        let firstHigh = (Int(v4.position), Int(v5.position), Int(v6.position), Int(v7.position))
        let phaseLow = PhaseLanes(v0.position - Double(firstLow.0), v1.position - Double(firstLow.1),
                                  v2.position - Double(firstLow.2), v3.position - Double(firstLow.3))
        let phaseHigh = PhaseLanes(v4.position - Double(firstHigh.0), v5.position - Double(firstHigh.1),
                                   v6.position - Double(firstHigh.2), v7.position - Double(firstHigh.3))
        let incrementLow = PhaseLanes(v0.increment, v1.increment, v2.increment, v3.increment)
        let incrementHigh = PhaseLanes(v4.increment, v5.increment, v6.increment, v7.increment)
        var phase = EightPhases(phaseLow.bits, phaseHigh.bits)
        let increment = EightPhases(incrementLow.bits, incrementHigh.bits)
        let fractionMask = EightPhases(SIMD4(repeating: 1 << PhaseLanes.fractionBits - 1),
                                       SIMD4(repeating: 1 << PhaseLanes.fractionBits - 1)).bits
        let fractionScale = EightLanes(repeating: Float(1 / PhaseLanes.one))
        var amplitude = live * EightLanes(SIMD4(v0.amplitude, v1.amplitude, v2.amplitude, v3.amplitude),
                                          SIMD4(v4.amplitude, v5.amplitude, v6.amplitude, v7.amplitude))
        let step = live * EightLanes(SIMD4(v0.amplitudeStep, v1.amplitudeStep, v2.amplitudeStep, v3.amplitudeStep),
                                     SIMD4(v4.amplitudeStep, v5.amplitudeStep, v6.amplitudeStep, v7.amplitudeStep))
        // The taps' scale to -1…1 goes with the levels (the filter is linear).
        let scaleLow = SIMD4<Float>(repeating: 1 / SoundFontFrames.tapScale), scaleHigh = liveHigh * scaleLow
        let mixLow = LaneMix(left: SIMD4(v0.left, v1.left, v2.left, v3.left) * scaleLow,
                             right: SIMD4(v0.right, v1.right, v2.right, v3.right) * scaleLow,
                             reverb: SIMD4(v0.reverb, v1.reverb, v2.reverb, v3.reverb) * scaleLow,
                             chorus: SIMD4(v0.chorus, v1.chorus, v2.chorus, v3.chorus) * scaleLow)
        let mixHigh = LaneMix(left: SIMD4(v4.left, v5.left, v6.left, v7.left) * scaleHigh,
                              right: SIMD4(v4.right, v5.right, v6.right, v7.right) * scaleHigh,
                              reverb: SIMD4(v4.reverb, v5.reverb, v6.reverb, v7.reverb) * scaleHigh,
                              chorus: SIMD4(v4.chorus, v5.chorus, v6.chorus, v7.chorus) * scaleHigh)
        let b0 = EightLanes(SIMD4(v0.b0, v1.b0, v2.b0, v3.b0), SIMD4(v4.b0, v5.b0, v6.b0, v7.b0))
        let b1 = EightLanes(SIMD4(v0.b1, v1.b1, v2.b1, v3.b1), SIMD4(v4.b1, v5.b1, v6.b1, v7.b1))
        let b2 = EightLanes(SIMD4(v0.b2, v1.b2, v2.b2, v3.b2), SIMD4(v4.b2, v5.b2, v6.b2, v7.b2))
        let a1 = EightLanes(SIMD4(v0.a1, v1.a1, v2.a1, v3.a1), SIMD4(v4.a1, v5.a1, v6.a1, v7.a1))
        let a2 = EightLanes(SIMD4(v0.a2, v1.a2, v2.a2, v3.a2), SIMD4(v4.a2, v5.a2, v6.a2, v7.a2))
        // The filter's state in the taps' scale while here.
        let tapScale = EightLanes(repeating: SoundFontFrames.tapScale)
        var state1 = tapScale * EightLanes(SIMD4(v0.state1, v1.state1, v2.state1, v3.state1),
                                           SIMD4(v4.state1, v5.state1, v6.state1, v7.state1))
        var state2 = tapScale * EightLanes(SIMD4(v0.state2, v1.state2, v2.state2, v3.state2),
                                           SIMD4(v4.state2, v5.state2, v6.state2, v7.state2))
        // The positions as whole numbers in fixed point (see `FourVoiceLanes`).
        let bits = PhaseLanes.fractionBits
        var low = (firstLow.0 << bits | Int(phaseLow.bits[0]), firstLow.1 << bits | Int(phaseLow.bits[1]),
                   firstLow.2 << bits | Int(phaseLow.bits[2]), firstLow.3 << bits | Int(phaseLow.bits[3]))
        var high = (firstHigh.0 << bits | Int(phaseHigh.bits[0]), firstHigh.1 << bits | Int(phaseHigh.bits[1]),
                    firstHigh.2 << bits | Int(phaseHigh.bits[2]), firstHigh.3 << bits | Int(phaseHigh.bits[3]))
        let byLow = (Int(incrementLow.bits[0]), Int(incrementLow.bits[1]), Int(incrementLow.bits[2]), Int(incrementLow.bits[3]))
        let byHigh = (Int(incrementHigh.bits[0]), Int(incrementHigh.bits[1]), Int(incrementHigh.bits[2]),
                      Int(incrementHigh.bits[3]))
        let loopsLow = (LaneLoop(v0, byLow.0, frames), LaneLoop(v1, byLow.1, frames), LaneLoop(v2, byLow.2, frames),
                        LaneLoop(v3, byLow.3, frames))
        let loopsHigh = (LaneLoop(v4, byHigh.0, frames), LaneLoop(v5, byHigh.1, frames), LaneLoop(v6, byHigh.2, frames),
                         LaneLoop(v7, byHigh.3, frames))
        let seamsLow = LaneSeam.of(loopsLow, frames), seamsHigh = LaneSeam.of(loopsHigh, frames)
        let limit = FourVoiceLanes.scratchFrames
        var done = 0
        while done < count {
            let piece = min(count - done, limit)
            var i = 0
            while i < piece {
                // A lane past its loop's end goes back a loop's length (its fraction stays).
                low = LaneLoop.wrapped(low, in: loopsLow)
                high = LaneLoop.wrapped(high, in: loopsHigh)
                let clear = min(LaneLoop.framesClear(low, in: loopsLow, limit: limit),
                                LaneLoop.framesClear(high, in: loopsHigh, limit: limit), piece - i)
                guard clear > 0 else {
                    // A frame near a lane's loop end: that lane's taps from its seam (the loop's start past its end).
                    let tapsLow = LaneSeam.cubicTaps((low.0 &>> bits, low.1 &>> bits, low.2 &>> bits, low.3 &>> bits),
                                                     seamsLow, frames)
                    let tapsHigh = LaneSeam.cubicTaps((high.0 &>> bits, high.1 &>> bits, high.2 &>> bits, high.3 &>> bits),
                                                      seamsHigh, frames)
                    low = (low.0 &+ byLow.0, low.1 &+ byLow.1, low.2 &+ byLow.2, low.3 &+ byLow.3)
                    high = (high.0 &+ byHigh.0, high.1 &+ byHigh.1, high.2 &+ byHigh.2, high.3 &+ byHigh.3)
                    scratch[i] = EightLanes.cubic(EightLanes(tapsLow.before, tapsHigh.before), EightLanes(tapsLow.at, tapsHigh.at),
                                                  EightLanes(tapsLow.after, tapsHigh.after),
                                                  EightLanes(tapsLow.afterNext, tapsHigh.afterNext),
                                                  phase.fraction(mask: fractionMask, scale: fractionScale)).vector
                    phase.advance(by: increment)
                    i += 1
                    continue
                }
                for j in i..<(i + clear) {
                    let tapsLow = frames.cubicTaps(low.0 &>> bits, low.1 &>> bits, low.2 &>> bits, low.3 &>> bits)
                    let tapsHigh = frames.cubicTaps(high.0 &>> bits, high.1 &>> bits, high.2 &>> bits, high.3 &>> bits)
                    low = (low.0 &+ byLow.0, low.1 &+ byLow.1, low.2 &+ byLow.2, low.3 &+ byLow.3)
                    high = (high.0 &+ byHigh.0, high.1 &+ byHigh.1, high.2 &+ byHigh.2, high.3 &+ byHigh.3)
                    scratch[j] = EightLanes.cubic(EightLanes(tapsLow.before, tapsHigh.before), EightLanes(tapsLow.at, tapsHigh.at),
                                                  EightLanes(tapsLow.after, tapsHigh.after),
                                                  EightLanes(tapsLow.afterNext, tapsHigh.afterNext),
                                                  phase.fraction(mask: fractionMask, scale: fractionScale)).vector
                    phase.advance(by: increment)
                }
                i += clear
            }
            // The filter and the amplitude over the piece, as `FourVoiceLanes` runs them.
            var input = EightLanes(scratch[0])
            var filtered = EightLanes.multiplyAdd(b0, input, state1)
            var older = state2
            amplitude += step
            scratch[0] = (filtered * amplitude).vector
            for i in 1..<piece {
                let previous = input
                input = EightLanes(scratch[i])
                let next = EightLanes.subtractProduct(a1, filtered,
                                                      from: EightLanes.multiplyAdd(b0, input, EightLanes.multiplyAdd(b1, previous, older)))
                older = EightLanes.subtractProduct(a2, filtered, from: b2 * previous)
                filtered = next
                amplitude += step
                scratch[i] = (filtered * amplitude).vector
            }
            state1 = EightLanes.subtractProduct(a1, filtered, from: EightLanes.multiplyAdd(b1, input, older))
            state2 = EightLanes.subtractProduct(a2, filtered, from: b2 * input)
            // Each quad of lanes mixed as `FourVoiceLanes` mixes its four.
            let quads = UnsafeRawPointer(scratch).assumingMemoryBound(to: SIMD4<Float>.self)
            mixLow.add(quads, stride: 2, frames: piece, into: output.advanced(by: done))
            mixHigh.add(quads + 1, stride: 2, frames: piece, into: output.advanced(by: done))
            done += piece
        }
        low = LaneLoop.wrapped(low, in: loopsLow)
        high = LaneLoop.wrapped(high, in: loopsHigh)
        let positions = (low.0, low.1, low.2, low.3, high.0, high.1, high.2, high.3)
        let inverse = EightLanes(repeating: 1 / SoundFontFrames.tapScale)
        let amplitudes = amplitude.halves, firsts = (inverse * state1).halves, seconds = (inverse * state2).halves
        withUnsafeBytes(of: positions) { raw in
            let at = raw.assumingMemoryBound(to: Int.self)
            for lane in 0..<lanes {
                let quad = lane < 4 ? 0 : 1, index = lane & 3
                voices[lane].position = Double(at[lane]) / PhaseLanes.one
                voices[lane].amplitude = (quad == 0 ? amplitudes.low : amplitudes.high)[index]
                voices[lane].state1 = (quad == 0 ? firsts.low : firsts.high)[index]
                voices[lane].state2 = (quad == 0 ? seconds.low : seconds.high)[index]
            }
        }
    }
}

/// Eight `Float` lanes in one 256-bit AVX register, each operator one instruction (this
/// module is compiled for AVX2 and FMA; `EightVoiceLanes` runs it only where the processor
/// has them).
///
/// Private to this file: a type of the module's own would get value witnesses (a copy
/// function compiled for AVX under a name every module shares; see
/// scripts/check-avx2-module).
///
/// - Thread: any (a plain value).
private struct EightLanes {
    var vector: SIMD8<Float>

    @inline(__always) init(_ vector: SIMD8<Float>) { self.vector = vector }

    /// `value` in every lane.
    @inline(__always) init(repeating value: Float) { vector = _mm256_set1_ps(value) }

    /// Lanes 0…3 from `low`, 4…7 from `high`.
    @inline(__always) init(_ low: SIMD4<Float>, _ high: SIMD4<Float>) { vector = _mm256_set_m128(high, low) }

    @inline(__always) static func + (a: EightLanes, b: EightLanes) -> EightLanes { EightLanes(_mm256_add_ps(a.vector, b.vector)) }
    @inline(__always) static func - (a: EightLanes, b: EightLanes) -> EightLanes { EightLanes(_mm256_sub_ps(a.vector, b.vector)) }
    @inline(__always) static func * (a: EightLanes, b: EightLanes) -> EightLanes { EightLanes(_mm256_mul_ps(a.vector, b.vector)) }
    @inline(__always) static func += (a: inout EightLanes, b: EightLanes) { a = a + b }

    /// a × b + c, rounded once.
    @inline(__always) static func multiplyAdd(_ a: EightLanes, _ b: EightLanes, _ c: EightLanes) -> EightLanes {
        EightLanes(_mm256_fmadd_ps(a.vector, b.vector, c.vector))
    }

    /// a × b − c, rounded once.
    @inline(__always) static func multiplySubtract(_ a: EightLanes, _ b: EightLanes, _ c: EightLanes) -> EightLanes {
        EightLanes(_mm256_fmsub_ps(a.vector, b.vector, c.vector))
    }

    /// c − a × b, rounded once.
    @inline(__always) static func subtractProduct(_ a: EightLanes, _ b: EightLanes, from c: EightLanes) -> EightLanes {
        EightLanes(_mm256_fnmadd_ps(a.vector, b.vector, c.vector))
    }

    /// Lanes 0…3 and 4…7.
    @inline(__always) var halves: (low: SIMD4<Float>, high: SIMD4<Float>) {
        unsafeBitCast(vector, to: (low: SIMD4<Float>, high: SIMD4<Float>).self)
    }

    /// The Catmull-Rom cubic through taps `ym1` … `y2` at fraction `x`, in the form of
    /// `FloatLanes.cubic` with its multiply-adds fused.
    @inline(__always)
    static func cubic(_ ym1: EightLanes, _ y0: EightLanes, _ y1: EightLanes, _ y2: EightLanes, _ x: EightLanes) -> EightLanes {
        let half = EightLanes(repeating: 0.5)
        let slope = half * (y1 - ym1), step = y0 - y1
        let v = slope + step
        let cubed = multiplyAdd(half, y2 - y0, v + step)
        let squared = v + cubed
        return multiplyAdd(multiplyAdd(multiplySubtract(cubed, x, squared), x, slope), x, y0)
    }
}

/// Eight sample positions' fractions in fixed point (`PhaseLanes.fractionBits`), in one
/// 256-bit register.
///
/// - Thread: any (a plain value).
private struct EightPhases {
    var bits: SIMD4<Int64>

    /// Lanes 0…3 from `low`, 4…7 from `high`.
    @inline(__always) init(_ low: SIMD4<Int32>, _ high: SIMD4<Int32>) {
        bits = _mm256_set_m128i(unsafeBitCast(high, to: SIMD2<Int64>.self), unsafeBitCast(low, to: SIMD2<Int64>.self))
    }

    /// The fraction of each lane, 0 ..< 1.
    @inline(__always) func fraction(mask: SIMD4<Int64>, scale: EightLanes) -> EightLanes {
        EightLanes(_mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_and_si256(bits, mask)), scale.vector))
    }

    @inline(__always) mutating func advance(by increment: EightPhases) {
        bits = _mm256_add_epi32(bits, increment.bits)
    }
}
#endif
