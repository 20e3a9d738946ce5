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
            fields.run(signal: signal, columnStride: columnStride, range: done..<done + length,
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

/// The per-lane values of a voice group, one vector per field, in scratch memory: voices
/// write their lane with scalar stores, the sample loop reads whole vectors. Idle lanes
/// stay at zero (zero signal, level and gains), so they add nothing.
enum LaneField: Int {
    case b11, b12, b21, b22, d1, d2, e0, e1, e2, s1, s2
    case gainLeft, gainRight, stepLeft, stepRight, level, mul, add

    static let count = LaneField.add.rawValue + 1
}

private struct LaneFields {
    typealias Lanes = VoiceGroup.Lanes
    let base: UnsafeMutablePointer<Lanes>

    @inline(__always) func clear() { base.update(repeating: .zero, count: LaneField.count) }

    @inline(__always) func set(_ field: LaneField, _ lane: Int, _ value: Float) {
        UnsafeMutableRawPointer(base + field.rawValue).storeBytes(of: value, toByteOffset: lane * 4, as: Float.self)
    }

    @inline(__always) func get(_ field: LaneField, _ lane: Int) -> Float {
        UnsafeRawPointer(base + field.rawValue).load(fromByteOffset: lane * 4, as: Float.self)
    }

    @inline(__always) subscript(_ field: LaneField) -> Lanes {
        get { base[field.rawValue] }
        nonmutating set { base[field.rawValue] = newValue }
    }

    @inline(__always)
    func load(_ period: VoicePeriod, filterState: (Float, Float), lane: Int) {
        let f = period.filter
        set(.b11, lane, f.b11); set(.b12, lane, f.b12); set(.b21, lane, f.b21); set(.b22, lane, f.b22)
        set(.d1, lane, f.d1); set(.d2, lane, f.d2); set(.e0, lane, f.e0); set(.e1, lane, f.e1); set(.e2, lane, f.e2)
        set(.s1, lane, filterState.0); set(.s2, lane, filterState.1)
        set(.gainLeft, lane, period.gainLeft); set(.gainRight, lane, period.gainRight)
        set(.stepLeft, lane, period.stepLeft); set(.stepRight, lane, period.stepRight)
    }

    /// Filter, envelope and pan ramp for the frames in `range`.
    @inline(__always)
    func run(signal: UnsafeMutablePointer<Float>, columnStride: Int, range: Range<Int>,
             mixLeft: UnsafeMutablePointer<Lanes>, mixRight: UnsafeMutablePointer<Lanes>) {
        let c0 = signal, c1 = c0 + columnStride, c2 = c1 + columnStride, c3 = c2 + columnStride
        let c4 = c3 + columnStride, c5 = c4 + columnStride, c6 = c5 + columnStride, c7 = c6 + columnStride
        let b11 = self[.b11], b12 = self[.b12], b21 = self[.b21], b22 = self[.b22], d1 = self[.d1], d2 = self[.d2]
        let e0 = self[.e0], e1 = self[.e1], e2 = self[.e2]
        let mul = self[.mul], add = self[.add], stepLeft = self[.stepLeft], stepRight = self[.stepRight]
        var s1 = self[.s1], s2 = self[.s2], level = self[.level], gainLeft = self[.gainLeft], gainRight = self[.gainRight]
        for i in range {
            let x = Lanes(c0[i], c1[i], c2[i], c3[i], c4[i], c5[i], c6[i], c7[i])
            let y = e0 * x + e1 * s1 + e2 * s2
            (s1, s2) = (b11 * s1 + (b12 * s2 + d1 * x), b22 * s2 + (b21 * s1 + d2 * x))
            level = level * mul + add
            gainLeft += stepLeft
            gainRight += stepRight
            let out = y * level
            mixLeft[i] += out * gainLeft
            mixRight[i] += out * gainRight
        }
        self[.s1] = s1; self[.s2] = s2; self[.level] = level
        self[.gainLeft] = gainLeft; self[.gainRight] = gainRight
    }
}
