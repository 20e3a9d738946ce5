/// The per-sample loop of the synth: renders up to eight voices at once, one voice per
/// SIMD lane, so the filter and envelope recurrences (a serial chain within one voice)
/// run side by side across voices.
///
/// Each voice first writes its oscillator signal for the period into its own column of
/// `signal` (`Voice.beginPeriod`); the loop then filters, applies the amplitude envelope
/// and the pan ramp in lanes, and adds the lanes into per-frame lane accumulators
/// (`mixLeft`/`mixRight`). The caller sums the lanes of each frame once, after all groups.
///
/// - Thread: render.
enum VoiceGroup {
    typealias Lanes = SIMD8<Float>
    /// Voices rendered together.
    static let width = 8

    /// Adds `frames` frames (≤ `columnStride`) of the voices at `slots[0..<count]`
    /// (`count` ≤ `width`) into the lane accumulators `mixLeft`/`mixRight`.
    /// - Parameter signal: scratch of `width × columnStride` floats.
    @inline(__always)
    static func render(voices: UnsafeMutablePointer<Voice>, slots: UnsafePointer<Int32>, count: Int,
                       channels: UnsafePointer<ChannelState>, frames: Int, context: VoiceRenderContext,
                       signal: UnsafeMutablePointer<Float>, columnStride: Int,
                       mixLeft: UnsafeMutablePointer<Lanes>, mixRight: UnsafeMutablePointer<Lanes>) {
        var state = LaneState()
        for lane in 0..<width {
            let column = signal + lane * columnStride
            guard lane < count else {
                column.update(repeating: 0, count: frames)
                continue
            }
            let voice = voices + Int(slots[lane])
            let channel = channels[Int(voice.pointee.channel)]
            let modulation = ChannelModulation(bendSemitones: channel.bendSemitones, wheel: channel.wheel,
                                               gain: channel.gain, pan: channel.pan)
            let period = voice.pointee.beginPeriod(count: frames, modulation: modulation, context: context, signal: column)
            state.load(period, filterState: (voice.pointee.filterState1, voice.pointee.filterState2), lane: lane)
        }

        var done = 0
        while done < frames {
            // Run up to the next envelope stage change of any lane.
            var length = frames - done
            for lane in 0..<count {
                let segment = voices[Int(slots[lane])].amp.segment
                length = min(length, segment.remaining)
                state.level[lane] = segment.level
                state.mul[lane] = segment.mul
                state.add[lane] = segment.add
            }
            state.run(signal: signal, columnStride: columnStride, range: done..<done + length,
                      mixLeft: mixLeft, mixRight: mixRight)
            for lane in 0..<count {
                voices[Int(slots[lane])].amp.advance(frames: length, level: state.level[lane])
            }
            done += length
        }

        for lane in 0..<count {
            let voice = voices + Int(slots[lane])
            voice.pointee.filterState1 = flushTiny(state.s1[lane])
            voice.pointee.filterState2 = flushTiny(state.s2[lane])
        }
    }
}

/// The per-sample state of a group of voices, one per lane; idle lanes stay at zero
/// (zero signal, level and gains), so they add nothing.
private struct LaneState {
    typealias Lanes = VoiceGroup.Lanes
    var a1 = Lanes(), a2 = Lanes(), a3 = Lanes(), k = Lanes()
    var low = Lanes(), band = Lanes(), high = Lanes()
    var s1 = Lanes(), s2 = Lanes()
    var level = Lanes(), mul = Lanes(repeating: 1), add = Lanes()
    var gainLeft = Lanes(), gainRight = Lanes(), stepLeft = Lanes(), stepRight = Lanes()

    @inline(__always)
    mutating func load(_ period: VoicePeriod, filterState: (Float, Float), lane: Int) {
        let f = period.filter
        a1[lane] = f.a1; a2[lane] = f.a2; a3[lane] = f.a3; k[lane] = f.k
        low[lane] = f.low; band[lane] = f.band; high[lane] = f.high
        s1[lane] = filterState.0; s2[lane] = filterState.1
        gainLeft[lane] = period.gainLeft; gainRight[lane] = period.gainRight
        stepLeft[lane] = period.stepLeft; stepRight[lane] = period.stepRight
    }

    /// Filter (TPT state-variable), envelope and pan ramp for the frames in `range`.
    @inline(__always)
    mutating func run(signal: UnsafeMutablePointer<Float>, columnStride: Int, range: Range<Int>,
                      mixLeft: UnsafeMutablePointer<Lanes>, mixRight: UnsafeMutablePointer<Lanes>) {
        let c0 = signal, c1 = c0 + columnStride, c2 = c1 + columnStride, c3 = c2 + columnStride
        let c4 = c3 + columnStride, c5 = c4 + columnStride, c6 = c5 + columnStride, c7 = c6 + columnStride
        var s1 = self.s1, s2 = self.s2, l = level, gl = gainLeft, gr = gainRight
        for i in range {
            let x = Lanes(c0[i], c1[i], c2[i], c3[i], c4[i], c5[i], c6[i], c7[i])
            let v3 = x - s2
            let v1 = a1 * s1 + a2 * v3
            let v2 = s2 + a2 * s1 + a3 * v3
            s1 = 2 * v1 - s1
            s2 = 2 * v2 - s2
            let y = low * v2 + band * v1 + high * (x - k * v1 - v2)
            l = l * mul + add
            gl += stepLeft
            gr += stepRight
            let s = y * l
            mixLeft[i] += s * gl
            mixRight[i] += s * gr
        }
        self.s1 = s1
        self.s2 = s2
        level = l
        gainLeft = gl
        gainRight = gr
    }
}
