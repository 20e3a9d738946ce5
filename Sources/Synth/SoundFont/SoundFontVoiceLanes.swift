import SoundFont

/// Up to four voices rendered together, one per SIMD lane: the cubic interpolation, the
/// filter, the amplitude ramp and the panning run on all lanes at once, so the filter's
/// recursion (the loop's critical path) is shared by four voices. Only for spans where
/// every lane reads inside its sample (no edge, no loop wrap), is not fading and ticks
/// nowhere inside; the voices' state is read before and written back after, so a voice
/// moves between this path and its own (`SoundFontVoice.renderFrames`) at any span.
///
/// - Thread: render.
enum SoundFontVoiceLanes {
    /// Whether `voice` can render `count` frames here.
    @inline(__always)
    static func accepts(_ voice: SoundFontVoice, count: Int) -> Bool {
        guard voice.isActive, !voice.isFading, voice.frames != nil else { return false }
        let limit = voice.isLooping ? voice.loopEnd : voice.end
        let index = Int(voice.position)
        // Cubic: frames index-1 … index+2 of every frame of the span stay below `limit`.
        return index >= voice.start + 1 && Double(limit - 3) - voice.position > Double(count) * voice.increment
    }

    /// Renders `count` frames of the voices at `slots` (2…4 of them) into `left` and `right`.
    static func render(_ voices: UnsafeMutablePointer<SoundFontVoice>, slots: UnsafePointer<Int>, lanes: Int,
                       frames: SoundFontFrames, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                       count: Int) {
        // A missing lane repeats lane 0 with no amplitude: it reads valid frames and adds nothing.
        func slot(_ lane: Int) -> Int { slots[lane < lanes ? lane : 0] }
        var position = SIMD4<Double>(voices[slot(0)].position, voices[slot(1)].position, voices[slot(2)].position,
                                     voices[slot(3)].position)
        let increment = SIMD4<Double>(voices[slot(0)].increment, voices[slot(1)].increment, voices[slot(2)].increment,
                                      voices[slot(3)].increment)
        var amplitude = SIMD4<Float>.zero, step = SIMD4<Float>.zero, panLeft = SIMD4<Float>.zero, panRight = SIMD4<Float>.zero
        var b0 = SIMD4<Float>.zero, b1 = SIMD4<Float>.zero, b2 = SIMD4<Float>.zero
        var a1 = SIMD4<Float>.zero, a2 = SIMD4<Float>.zero, state1 = SIMD4<Float>.zero, state2 = SIMD4<Float>.zero
        for index in 0..<lanes {
            let voice = voices[slots[index]]
            amplitude[index] = voice.amplitude
            step[index] = voice.amplitudeStep
            panLeft[index] = voice.panLeft * voice.fadeGain
            panRight[index] = voice.panRight * voice.fadeGain
            let c = voice.filter.coefficients
            (b0[index], b1[index], b2[index], a1[index], a2[index]) = (c.b0, c.b1, c.b2, c.a1, c.a2)
            state1[index] = voice.filter.state1
            state2[index] = voice.filter.state2
        }
        for lane in lanes..<4 { b0[lane] = 1 }
        for i in 0..<count {
            let i0 = Int(position[0]), i1 = Int(position[1]), i2 = Int(position[2]), i3 = Int(position[3])
            let x = SIMD4<Float>(Float(position[0] - Double(i0)), Float(position[1] - Double(i1)),
                                 Float(position[2] - Double(i2)), Float(position[3] - Double(i3)))
            let p0 = frames.four(from: i0 - 1), p1 = frames.four(from: i1 - 1)
            let p2 = frames.four(from: i2 - 1), p3 = frames.four(from: i3 - 1)
            // Transposed: each tap across the four lanes.
            let ym1 = SIMD4(p0[0], p1[0], p2[0], p3[0]), y0 = SIMD4(p0[1], p1[1], p2[1], p3[1])
            let y1 = SIMD4(p0[2], p1[2], p2[2], p3[2]), y2 = SIMD4(p0[3], p1[3], p2[3], p3[3])
            let c1 = 0.5 * (y1 - ym1)
            let c2 = ym1 - 2.5 * y0 + 2 * y1 - 0.5 * y2
            let c3 = 0.5 * (y2 - ym1) + 1.5 * (y0 - y1)
            let input = ((c3 * x + c2) * x + c1) * x + y0
            let output = b0 * input + state1
            state1 = b1 * input - a1 * output + state2
            state2 = b2 * input - a2 * output
            amplitude += step
            let value = output * amplitude
            left[i] += (value * panLeft).sum()
            right[i] += (value * panRight).sum()
            position += increment
        }
        for index in 0..<lanes {
            voices[slots[index]].position = position[index]
            voices[slots[index]].amplitude = amplitude[index]
            voices[slots[index]].filter.state1 = state1[index]
            voices[slots[index]].filter.state2 = state2[index]
        }
    }
}
