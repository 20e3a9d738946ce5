import SynthKernels

/// Per-block constants every voice reads while rendering.
/// - Thread: render (a plain value).
struct VoiceRenderContext {
    var sampleRate: Float
    var inverseSampleRate: Float
    /// Highest filter cutoff, just below Nyquist.
    var maxCutoff: Float
    /// The build of the per-sample loops the node chose.
    var loops: SynthLoops
}

/// What a voice reads from its channel for one control period.
/// - Thread: render (a plain value).
struct ChannelModulation {
    var bendSemitones: Float
    var wheel: Float
    var gain: Float
    var pan: Float
}

/// One sounding note: a plain value (no references), stored in a preallocated array.
/// Oscillators advance their phase before computing a sample, so a voice's first sample
/// (at its note-on frame) is already non-zero.
///
/// - Thread: render.
struct Voice {
    var timbre = Timbre()
    var amp = Envelope()
    var filterEnvelope = Envelope()
    var channel: UInt8 = 0
    var note: UInt8 = 0
    /// The key is up but the sustain pedal holds the note.
    var isSustained = false
    /// Note-off (or pedal-up) has been applied.
    var isReleased = false
    /// Being faded out after stealing or all-sound-off; no longer counts against the limit.
    var isFading = false
    /// Note-on order, for oldest-first stealing.
    var age: UInt64 = 0
    var pitch: Float = 60
    var velocityGain: Float = 1
    var cutoffNote: Float = 60
    var phase1: Float = 0
    var phase2: Float = 0
    var phaseSub: Float = 0
    /// The waveforms and levels the oscillators, the sub oscillator and the noise played in
    /// the last period: a change ramps from them over the next (`Voice+Oscillators`).
    var wave1: Waveform = .saw
    var wave2: Waveform = .square
    var level1: Float = 0
    var level2: Float = 0
    var levelSub: Float = 0
    var levelNoise: Float = 0
    /// Semitones the pitch still slides (to 0) and how many it slides a frame.
    var glide: Float = 0
    var glideRate: Float = 0
    var lfoPhase: Float = 0
    var noiseState: UInt32 = 1
    var filterState1: Float = 0
    var filterState2: Float = 0
    var pitchEnvelope: Float = 0
    /// log2 of the pitch envelope's per-frame decay factor.
    var pitchEnvelopeDecay: Float = 0
    var gainLeft: Float = 0
    var gainRight: Float = 0
    var hasRendered = false

    /// Starts a note: resets oscillator, filter and envelopes.
    mutating func start(timbre: Timbre, channel: UInt8, note: UInt8, velocity: UInt8, age: UInt64, sampleRate: Float) {
        self = Voice()
        self.timbre = timbre
        self.channel = channel
        self.note = note
        self.age = age
        pitch = timbre.fixedNote >= 0 ? timbre.fixedNote : Float(note)
        let v = Float(velocity) / 127
        velocityGain = timbre.gain * (1 - timbre.velocitySensitivity + timbre.velocitySensitivity * v * v)
        cutoffNote = 69 + 12 * log2Approx(timbre.filterCutoff / 440)
            + timbre.filterKeytrack * (pitch - 60) + timbre.filterVelocity * v
        noiseState = UInt32(truncatingIfNeeded: age &* 2_654_435_761) | 1
        pitchEnvelope = timbre.pitchEnvAmount
        pitchEnvelopeDecay = -9.965_784 / max(timbre.pitchEnvTime * sampleRate, 1)
        amp = Envelope(attack: timbre.ampAttack, decay: timbre.ampDecay, sustain: timbre.ampSustain,
                       release: timbre.ampRelease, sampleRate: sampleRate)
        amp.start()
        filterEnvelope = Envelope(attack: timbre.filterAttack, decay: timbre.filterDecay, sustain: timbre.filterSustain,
                                  release: timbre.filterRelease, sampleRate: sampleRate)
        filterEnvelope.start()
    }

    /// Slides from `previous` (a pitch) to the note's own pitch in `seconds`, linearly in pitch.
    mutating func startGlide(from previous: Float, seconds: Float, sampleRate: Float) {
        glide = previous - pitch
        glideRate = abs(glide) / max(seconds * sampleRate, 1)
    }

    /// Releases the note with its release times scaled by `ampScale` and `filterScale`.
    mutating func release(ampScale: Float, filterScale: Float, sampleRate: Float) {
        if ampScale != 1 { amp.setRelease(timbre.ampRelease * ampScale, sampleRate: sampleRate) }
        if filterScale != 1 { filterEnvelope.setRelease(timbre.filterRelease * filterScale, sampleRate: sampleRate) }
        release()
    }

    mutating func release() {
        isReleased = true
        isSustained = false
        amp.release()
        filterEnvelope.release()
    }

    /// Fades out within `frames` frames (no click), then the voice ends.
    mutating func fade(frames: Int) {
        isFading = true
        isReleased = true
        amp.fade(frames: frames)
    }

    /// Control-rate work for the next `count` frames: advances pitch, glide, LFO and filter
    /// envelope, writes the oscillator and noise signal into `signal`, and returns the
    /// filter's settings and pan gains the per-sample loop (`VoiceGroup`) needs. At the
    /// knobs' defaults (`shaping`) every value is the preset's own, computed as before them.
    @inline(__always)
    mutating func beginPeriod(count: Int, modulation: ChannelModulation, shaping: SoundShaping, context: VoiceRenderContext,
                              signal: UnsafeMutablePointer<Float>) -> VoicePeriod {
        let n = Float(count)
        let lfo = sinCycle(lfoPhase)
        let lfoRate = shaping.lfoRate > 0 ? shaping.lfoRate : timbre.lfoRate
        lfoPhase += lfoRate * context.inverseSampleRate * n
        lfoPhase -= Float(Int32(lfoPhase))
        let vibrato = lfo * (timbre.lfoPitch + shaping.vibrato + timbre.lfoWheelPitch * modulation.wheel) * 0.01
        var note = pitch + modulation.bendSemitones + vibrato + pitchEnvelope
        if glide != 0 {
            note += glide
            let step = glideRate * n
            glide = glide > 0 ? max(glide - step, 0) : min(glide + step, 0)
        }
        if pitchEnvelope != 0 {
            pitchEnvelope = flushTiny(pitchEnvelope * exp2Fast(pitchEnvelopeDecay * n))
        }
        var cutoffNote = self.cutoffNote + shaping.brightness + (timbre.filterEnvAmount + shaping.filterEnv) * filterEnvelope.level
            + (timbre.lfoFilter + shaping.lfoCutoff) * lfo
        if shaping.keyTrack != 0 { cutoffNote += shaping.keyTrackOffset(timbre, pitch: pitch) }
        let cutoff = min(noteToHertz(cutoffNote), context.maxCutoff)
        filterEnvelope.skip(count)

        signal.update(repeating: 0, count: count)
        addOscillators(note: note, shaping: shaping, context: context, into: signal, count: count)

        var period = VoicePeriod(cutoff: cutoff, resonance: shaping.resonance(timbre.filterResonance), mode: timbre.filterMode)
        let position = (min(max(modulation.pan + timbre.pan, -1), 1) + 1) * 0.5
        var gain = velocityGain * modulation.gain
        if shaping.tremolo > 0 { gain *= 1 - shaping.tremolo * (1 - lfo) * 0.5 }
        let targetLeft = gain * sinQuarter(1 - position)
        let targetRight = gain * sinQuarter(position)
        if !hasRendered {
            gainLeft = targetLeft
            gainRight = targetRight
            hasRendered = true
        }
        period.gainLeft = gainLeft
        period.gainRight = gainRight
        period.stepLeft = (targetLeft - gainLeft) / n
        period.stepRight = (targetRight - gainRight) / n
        gainLeft = targetLeft
        gainRight = targetRight
        return period
    }
}

/// What the per-sample loop needs from one voice for one control period.
/// - Thread: render (a plain value).
struct VoicePeriod {
    /// The filter's cutoff in hertz, resonance and response (`FilterCoefficients`).
    var cutoff: Float
    var resonance: Float
    var mode: FilterMode
    /// Pan gains at the period's start and their per-frame ramp steps.
    var gainLeft: Float = 0
    var gainRight: Float = 0
    var stepLeft: Float = 0
    var stepRight: Float = 0
}

/// The topology-preserving-transform state-variable filter (Zavalishin) for one control
/// period, written as a state-space update so one sample's serial chain is short:
/// `s1' = b11·s1 + b12·s2 + d1·x`, `s2' = b21·s1 + b22·s2 + d2·x`, and the output
/// `y = e0·x + e1·s1 + e2·s2` mixes low-, band- and high-pass by the filter mode. One
/// voice a lane: a voice group's filters are designed together (their divisions in vectors).
/// - Thread: render (a plain value).
struct FilterCoefficients {
    typealias Lanes = VoiceGroup.Lanes
    var b11: Lanes, b12: Lanes, b21: Lanes, b22: Lanes, d1: Lanes, d2: Lanes
    var e0: Lanes, e1: Lanes, e2: Lanes

    /// The filters of `cutoff` hertz and `resonance`, each lane's response the mix of
    /// `low`, `band` and `high` (`FilterMode.response`).
    @inline(__always)
    init(cutoff: Lanes, resonance: Lanes, low: Lanes, band: Lanes, high: Lanes, inverseSampleRate: Float) {
        let g = tanSmall(Float.pi * cutoff * inverseSampleRate)
        let k = 2 - 2 * resonance
        let a1 = 1 / (1 + g * (g + k))
        let a2 = g * a1
        let a3 = g * a2
        // TPT: v3 = x − s2, v1 = a1·s1 + a2·v3, v2 = s2 + a2·s1 + a3·v3, s1' = 2·v1 − s1, s2' = 2·v2 − s2.
        b11 = 2 * a1 - 1; b12 = -2 * a2; d1 = 2 * a2
        b21 = 2 * a2; b22 = 1 - 2 * a3; d2 = 2 * a3
        // low = v2, band = v1, high = x − k·v1 − v2.
        let c1 = band - high * k, c2 = low - high  // y = high·x + c1·v1 + c2·v2
        e0 = high + c1 * a2 + c2 * a3
        e1 = c1 * a1 + c2 * a2
        e2 = -c1 * a2 + c2 * (1 - a3)
    }
}

/// - Thread: any (a plain value).
extension FilterMode {
    /// How much of the low-, band- and high-pass outputs the filter's output is.
    var response: (low: Float, band: Float, high: Float) {
        switch self {
        case .lowpass: (1, 0, 0)
        case .bandpass: (0, 1, 0)
        case .highpass: (0, 0, 1)
        }
    }
}

/// log2(x) for positive x, good to about 1e-4 (control-rate use).
/// - Thread: any (pure).
@inline(__always)
func log2Approx(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let m = Float(bitPattern: (bits & 0x7F_FFFF) | 0x3F80_0000) // 1 ≤ m < 2
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    return exponent + 2.885_390_1 * t * (1 + t2 * (0.333_333_3 + t2 * (0.2 + t2 * 0.142_857_1)))
}
