import SynthKernels

extension Voice {
    /// Adds one period of the voice's sources into `signal`: oscillators 1 and 2 (their
    /// waveforms, mix and oscillator 2's interval as the knobs move them), the sub oscillator
    /// (a square an octave below oscillator 1) and the noise. A level or waveform that differs
    /// from the last period's ramps (or crossfades) over this one, so turning a knob never
    /// clicks; at steady levels it is the plain oscillator of the preset.
    /// - Thread: render.
    @inline(__always)
    mutating func addOscillators(note: Float, shaping: SoundShaping, context: VoiceRenderContext,
                                 into signal: UnsafeMutablePointer<Float>, count: Int) {
        let inverseSampleRate = context.inverseSampleRate, loops = context.loops
        let (osc1, osc2) = shaping.oscillatorLevels(timbre)
        let wave1 = shaping.osc1Wave ?? timbre.osc1Wave
        let wave2 = shaping.osc2Wave ?? timbre.osc2Wave
        let sub = shaping.sub > 0 ? shaping.sub * (timbre.osc1Level + timbre.osc2Level) : 0
        let noise = shaping.noiseLevel(timbre)
        if !hasRendered {
            self.wave1 = wave1
            self.wave2 = wave2
            level1 = osc1
            level2 = osc2
            levelSub = sub
            levelNoise = noise
        }
        let cents1 = (timbre.osc1Cents - shaping.detune / 2) * 0.01
        if osc1 > 0 || level1 > 0 {
            let dt = min(noteToHertz(note + timbre.osc1Semitones + cents1) * inverseSampleRate, 0.45)
            Self.addSource(wave1, level: osc1, loops: loops, last: &self.wave1, &level1, phase: &phase1, increment: dt,
                           pulseWidth: timbre.osc1PulseWidth, into: signal, count: count)
        }
        if osc2 > 0 || level2 > 0 {
            let dt = min(noteToHertz(note + (timbre.osc2Semitones + shaping.osc2Tune) + (timbre.osc2Cents + shaping.detune / 2) * 0.01)
                * inverseSampleRate, 0.45)
            Self.addSource(wave2, level: osc2, loops: loops, last: &self.wave2, &level2, phase: &phase2, increment: dt,
                           pulseWidth: timbre.osc2PulseWidth, into: signal, count: count)
        }
        if sub > 0 || levelSub > 0 {
            let dt = min(noteToHertz(note + timbre.osc1Semitones - 12 + cents1) * inverseSampleRate, 0.45)
            var square = Waveform.square
            Self.addSource(.square, level: sub, loops: loops, last: &square, &levelSub, phase: &phaseSub, increment: dt,
                           pulseWidth: 0.5, into: signal, count: count)
        }
        if noise > 0 || levelNoise > 0 {
            loops.addNoise(from: levelNoise, to: noise, state: &noiseState, into: signal, count: count)
            levelNoise = noise
        }
    }

    /// One oscillator for a period at `level` playing `wave`, coming from `lastWave` at
    /// `lastLevel` (updated to these): a level change ramps, a waveform change crossfades;
    /// `loops` runs them.
    @inline(__always)
    private static func addSource(_ wave: Waveform, level: Float, loops: SynthLoops,
                                  last lastWave: inout Waveform, _ lastLevel: inout Float,
                                  phase: inout Float, increment dt: Float, pulseWidth: Float,
                                  into signal: UnsafeMutablePointer<Float>, count: Int) {
        if wave == lastWave {
            if level == lastLevel {
                loops.add(wave, level: level, phase: &phase, increment: dt, pulseWidth: pulseWidth, into: signal, count: count)
            } else {
                loops.addRamp(wave, from: lastLevel, to: level, phase: &phase, increment: dt, pulseWidth: pulseWidth,
                                   into: signal, count: count)
            }
        } else {
            var outgoing = phase
            loops.addRamp(lastWave, from: lastLevel, to: 0, phase: &outgoing, increment: dt, pulseWidth: pulseWidth,
                               into: signal, count: count)
            loops.addRamp(wave, from: 0, to: level, phase: &phase, increment: dt, pulseWidth: pulseWidth,
                               into: signal, count: count)
        }
        lastWave = wave
        lastLevel = level
    }
}
