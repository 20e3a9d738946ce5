import RenderCore

/// Where the synth's knobs stand: the values parameter events set, and the smoothed values
/// the voices hear, moved toward them at control rate so no knob clicks. Each control period
/// it gives the voices a `SoundShaping`.
///
/// - Thread: render, but `init` on control; everything else on render (the storage is allocated in `init`).
struct SynthKnobs {
    typealias Parameter = SynthNode.Parameter
    private let values: NodeParameterValues
    /// The LFO's depth at each target (pitch, cutoff, amplitude: `lfo target` 0, 1, 2), so that changing the target
    /// moves the modulation over, smoothly, rather than jumping.
    private var lfoPitch = SmoothedValue(0)
    private var lfoCutoff = SmoothedValue(0)
    private var lfoAmplitude = SmoothedValue(0)

    /// Every knob at its default, ramps of `rampFrames` frames.
    /// - Thread: control (allocates).
    init(_ infos: [ParameterInfo], rampFrames: Int) {
        values = NodeParameterValues(infos)
        values.prepare(rampFrames: rampFrames)
        lfoPitch.rampFrames = max(1, rampFrames)
        lfoCutoff.rampFrames = max(1, rampFrames)
        lfoAmplitude.rampFrames = max(1, rampFrames)
    }

    /// Applies a `.parameter` event (unknown ids and non-finite values are ignored).
    mutating func apply(_ event: RenderEvent) { values.apply(event) }

    /// The value an event last set (what notes starting now take).
    @inline(__always)
    func target(_ parameter: Parameter) -> Float { values.target(parameter) }

    /// Jumps every smoothed value to its target (nothing sounds: a glide would be wasted).
    mutating func settle() {
        values.settle()
        updateLFOTargets()
        lfoPitch.reset(lfoPitch.target)
        lfoCutoff.reset(lfoCutoff.target)
        lfoAmplitude.reset(lfoAmplitude.target)
    }

    /// The knobs for the next `frames` frames (the smoothed values advanced by as much), the
    /// LFO's rate at `secondsPerBeat` when it is synced.
    mutating func shaping(advancing frames: Int, secondsPerBeat: Float) -> SoundShaping {
        var shaping = SoundShaping()
        takeTargets(into: &shaping)
        shaping.brightness = values.advance(Parameter.brightness, frames: frames) + values.advance(Parameter.cutoff, frames: frames)
        shaping.resonance = values.advance(Parameter.resonance, frames: frames)
        shaping.detune = values.advance(Parameter.detune, frames: frames)
        shaping.oscMix = values.advance(Parameter.oscMix, frames: frames)
        shaping.osc2Tune = values.advance(Parameter.osc2Tune, frames: frames)
        shaping.sub = values.advance(Parameter.sub, frames: frames)
        shaping.noise = values.advance(Parameter.noise, frames: frames)
        shaping.filterEnv = values.advance(Parameter.filterEnv, frames: frames)
        shaping.keyTrack = values.advance(Parameter.keyTrack, frames: frames)
        updateLFOTargets()
        shaping.vibrato = values.advance(Parameter.vibrato, frames: frames) + lfoPitch.advance(frames) * SoundShaping.lfoPitchCents
        shaping.lfoCutoff = lfoCutoff.advance(frames) * SoundShaping.lfoCutoffSemitones
        shaping.tremolo = lfoAmplitude.advance(frames)
        if target(.lfoSync) >= 0.5 {
            shaping.lfoRate = 1 / (target(.lfoBeats) * max(secondsPerBeat, 1e-3))
        } else {
            shaping.lfoRate = target(.lfoRate)
        }
        return shaping
    }

    /// Writes the knobs that are not smoothed — read when a note starts or is released, or
    /// switched (waveforms crossfade in the voice) — from their targets into `shaping`.
    func takeTargets(into shaping: inout SoundShaping) {
        shaping.attack = target(.attack)
        shaping.release = target(.release)
        shaping.ampAttack = target(.ampAttack)
        shaping.ampDecay = target(.ampDecay)
        shaping.ampSustain = target(.ampSustain)
        shaping.ampRelease = target(.ampRelease)
        shaping.filterAttack = target(.filterAttack)
        shaping.filterDecay = target(.filterDecay)
        shaping.filterSustain = target(.filterSustain)
        shaping.filterRelease = target(.filterRelease)
        shaping.osc1Wave = Self.wave(target(.osc1Wave))
        shaping.osc2Wave = Self.wave(target(.osc2Wave))
        shaping.glide = target(.glide)
    }

    /// The waveform a wave knob's value chooses: 0 the preset's (nil), 1 sine, 2 triangle,
    /// 3 saw, 4 square.
    @inline(__always)
    static func wave(_ value: Float) -> Waveform? {
        switch value.rounded() {
        case ...0: nil
        case 1: .sine
        case 2: .triangle
        case 3: .saw
        default: .square
        }
    }

    /// Points each target's depth at `lfo depth` (the chosen target) or 0 (the others);
    /// restarts a ramp only when that changes.
    private mutating func updateLFOTargets() {
        let depth = target(.lfoDepth)
        let chosen = target(.lfoTarget).rounded()
        Self.point(&lfoPitch, at: chosen <= 0 ? depth : 0)
        Self.point(&lfoCutoff, at: chosen == 1 ? depth : 0)
        Self.point(&lfoAmplitude, at: chosen >= 2 ? depth : 0)
    }

    @inline(__always)
    private static func point(_ smoothed: inout SmoothedValue, at wanted: Float) {
        if smoothed.target != wanted { smoothed.set(wanted) }
    }
}
