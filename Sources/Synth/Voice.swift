/// Per-block constants every voice reads while rendering.
struct VoiceRenderContext {
    var sampleRate: Float
    var inverseSampleRate: Float
    /// Highest filter cutoff, just below Nyquist.
    var maxCutoff: Float
    /// Scratch for the oscillator/filter signal and the amplitude envelope.
    var signal: UnsafeMutablePointer<Float>
    var envelope: UnsafeMutablePointer<Float>
}

/// What a voice reads from its channel for one control period.
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

    /// Adds `count` frames (≤ the scratch size) into `left`/`right`.
    /// - Returns: false when the voice has finished and can be freed.
    @inline(__always)
    mutating func render(count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                         modulation: ChannelModulation, context: VoiceRenderContext) -> Bool {
        let n = Float(count)
        // Control rate: pitch, LFO, filter coefficients, gains.
        let lfo = sinCycle(lfoPhase)
        lfoPhase += timbre.lfoRate * context.inverseSampleRate * n
        lfoPhase -= Float(Int32(lfoPhase))
        let vibrato = lfo * (timbre.lfoPitch + timbre.lfoWheelPitch * modulation.wheel) * 0.01
        let note = pitch + modulation.bendSemitones + vibrato + pitchEnvelope
        if pitchEnvelope != 0 {
            pitchEnvelope = flushTiny(pitchEnvelope * exp2Fast(pitchEnvelopeDecay * n))
        }
        let cutoff = min(noteToHertz(cutoffNote + timbre.filterEnvAmount * filterEnvelope.level + timbre.lfoFilter * lfo),
                         context.maxCutoff)
        filterEnvelope.skip(count)

        let signal = context.signal
        signal.update(repeating: 0, count: count)
        if timbre.osc1Level > 0 {
            let dt = min(noteToHertz(note + timbre.osc1Semitones + timbre.osc1Cents * 0.01) * context.inverseSampleRate, 0.45)
            Oscillator.add(timbre.osc1Wave, level: timbre.osc1Level, phase: &phase1, increment: dt,
                           pulseWidth: timbre.osc1PulseWidth, into: signal, count: count)
        }
        if timbre.osc2Level > 0 {
            let dt = min(noteToHertz(note + timbre.osc2Semitones + timbre.osc2Cents * 0.01) * context.inverseSampleRate, 0.45)
            Oscillator.add(timbre.osc2Wave, level: timbre.osc2Level, phase: &phase2, increment: dt,
                           pulseWidth: timbre.osc2PulseWidth, into: signal, count: count)
        }
        if timbre.noiseLevel > 0 {
            Oscillator.addNoise(level: timbre.noiseLevel, state: &noiseState, into: signal, count: count)
        }
        filter(signal, count: count, cutoff: cutoff, inverseSampleRate: context.inverseSampleRate)

        amp.render(into: context.envelope, count: count)
        mix(count: count, left: left, right: right, modulation: modulation, signal: signal, envelope: context.envelope)
        return !amp.isFinished
    }

    /// Topology-preserving-transform state-variable filter (Zavalishin), in place.
    @inline(__always)
    private mutating func filter(_ signal: UnsafeMutablePointer<Float>, count: Int, cutoff: Float, inverseSampleRate: Float) {
        let g = tanSmall(Float.pi * cutoff * inverseSampleRate)
        let k = 2 - 2 * timbre.filterResonance
        let a1 = 1 / (1 + g * (g + k))
        let a2 = g * a1
        let a3 = g * a2
        let mode = timbre.filterMode
        let low: Float = mode == .lowpass ? 1 : 0
        let band: Float = mode == .bandpass ? 1 : 0
        let high: Float = mode == .highpass ? 1 : 0
        var s1 = filterState1, s2 = filterState2
        for i in 0..<count {
            let x = signal[i]
            let v3 = x - s2
            let v1 = a1 * s1 + a2 * v3
            let v2 = s2 + a2 * s1 + a3 * v3
            s1 = 2 * v1 - s1
            s2 = 2 * v2 - s2
            signal[i] = low * v2 + band * v1 + high * (x - k * v1 - v2)
        }
        filterState1 = flushTiny(s1)
        filterState2 = flushTiny(s2)
    }

    /// Applies the amplitude envelope and the (ramped) constant-power pan gains.
    @inline(__always)
    private mutating func mix(count: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                              modulation: ChannelModulation, signal: UnsafeMutablePointer<Float>,
                              envelope: UnsafeMutablePointer<Float>) {
        let position = (min(max(modulation.pan + timbre.pan, -1), 1) + 1) * 0.5
        let gain = velocityGain * modulation.gain
        let targetLeft = gain * sinQuarter(1 - position)
        let targetRight = gain * sinQuarter(position)
        if !hasRendered {
            gainLeft = targetLeft
            gainRight = targetRight
            hasRendered = true
        }
        let stepLeft = (targetLeft - gainLeft) / Float(count)
        let stepRight = (targetRight - gainRight) / Float(count)
        let startLeft = gainLeft, startRight = gainRight
        for i in 0..<count {
            let s = signal[i] * envelope[i]
            let t = Float(i + 1)
            left[i] += s * (startLeft + stepLeft * t)
            right[i] += s * (startRight + stepRight * t)
        }
        gainLeft = targetLeft
        gainRight = targetRight
    }
}

/// log2(x) for positive x, good to about 1e-4 (control-rate use).
@inline(__always)
func log2Approx(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let m = Float(bitPattern: (bits & 0x7F_FFFF) | 0x3F80_0000) // 1 ≤ m < 2
    let t = (m - 1) / (m + 1)
    let t2 = t * t
    return exponent + 2.885_390_1 * t * (1 + t2 * (0.333_333_3 + t2 * (0.2 + t2 * 0.142_857_1)))
}
