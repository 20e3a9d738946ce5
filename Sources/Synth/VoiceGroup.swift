import SynthKernels

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
    /// - Parameters:
    ///   - signal: scratch of `width × columnStride` floats.
    ///   - lanes: scratch of `LaneField.count` lane vectors.
    @inline(__always)
    static func render(voices: UnsafeMutablePointer<Voice>, slots: UnsafePointer<Int32>, count: Int,
                       channels: UnsafePointer<ChannelState>, shaping: SoundShaping, frames: Int, context: VoiceRenderContext,
                       signal: UnsafeMutablePointer<Float>, columnStride: Int, lanes: UnsafeMutablePointer<Lanes>,
                       mixLeft: UnsafeMutablePointer<Lanes>, mixRight: UnsafeMutablePointer<Lanes>) {
        let fields = LaneFields(base: lanes)
        // Idle lanes' filters stay at cutoff 0 and no response (finite coefficients, nothing out).
        fields.clear()
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
            let period = voice.pointee.beginPeriod(count: frames, modulation: modulation, shaping: shaping, context: context,
                                                   signal: column)
            fields.load(period, filterState: (voice.pointee.filterState1, voice.pointee.filterState2), lane: lane)
        }
        fields.load(FilterCoefficients(cutoff: fields[.cutoff], resonance: fields[.resonance], low: fields[.low],
                                       band: fields[.band], high: fields[.high], inverseSampleRate: context.inverseSampleRate))

        var done = 0
        while done < frames {
            // Run up to the next envelope stage change of any lane.
            var length = frames - done
            for lane in 0..<count {
                let segment = voices[Int(slots[lane])].amp.segment
                length = min(length, segment.remaining)
                fields.set(.level, lane, segment.level)
                fields.set(.mul, lane, segment.mul)
                fields.set(.add, lane, segment.add)
            }
            context.loops.run(fields, signal: signal, columnStride: columnStride, range: done..<done + length,
                              mixLeft: mixLeft, mixRight: mixRight)
            for lane in 0..<count {
                voices[Int(slots[lane])].amp.advance(frames: length, level: fields.get(.level, lane))
            }
            done += length
        }

        for lane in 0..<count {
            let voice = voices + Int(slots[lane])
            voice.pointee.filterState1 = flushTiny(fields.get(.s1, lane))
            voice.pointee.filterState2 = flushTiny(fields.get(.s2, lane))
        }
    }
}

/// - Thread: render.
extension LaneFields {
    /// Writes `period`'s filter settings and gains, and the filter's state, into lane `lane`.
    @inline(__always)
    func load(_ period: VoicePeriod, filterState: (Float, Float), lane: Int) {
        let (low, band, high) = period.mode.response
        set(.cutoff, lane, period.cutoff); set(.resonance, lane, period.resonance)
        set(.low, lane, low); set(.band, lane, band); set(.high, lane, high)
        set(.s1, lane, filterState.0); set(.s2, lane, filterState.1)
        set(.gainLeft, lane, period.gainLeft); set(.gainRight, lane, period.gainRight)
        set(.stepLeft, lane, period.stepLeft); set(.stepRight, lane, period.stepRight)
    }

    /// Writes the group's filters (every lane).
    @inline(__always)
    func load(_ filter: FilterCoefficients) {
        self[.b11] = filter.b11; self[.b12] = filter.b12; self[.b21] = filter.b21; self[.b22] = filter.b22
        self[.d1] = filter.d1; self[.d2] = filter.d2; self[.e0] = filter.e0; self[.e1] = filter.e1; self[.e2] = filter.e2
    }
}
