import RenderCore

/// The synth's knobs over every preset it plays, as the voices read them for one control
/// period: a musician's controls that move the presets' own values rather than replace them
/// (offsets and factors that leave a preset as it is at their defaults).
///
/// The continuous ones (cutoff, resonance, mix, levels, depths…) are smoothed
/// (`SynthKnobs`) and move sounding notes each control period; the envelope times and
/// levels shape the notes that start after the change (the release times: the notes
/// released after it); glide applies to the next note.
///
/// - Thread: render (a plain value in the synth's render state).
struct SoundShaping {
    /// Semitones added to every filter cutoff (the `brightness` and `cutoff` knobs together).
    var brightness: Float = 0
    /// Added to every filter resonance (kept within 0…0.98, the presets' range).
    var resonance: Float = 0
    /// Factors of the amplitude and filter envelopes' attack and release times.
    var attack: Float = 1
    var release: Float = 1
    /// Cents the two oscillators move apart (each half of it).
    var detune: Float = 0
    /// Cents of vibrato added to the preset's (the `vibrato` knob and the LFO's pitch depth).
    var vibrato: Float = 0

    /// Waveforms replacing the presets' (nil: the preset's own).
    var osc1Wave: Waveform?
    var osc2Wave: Waveform?
    /// −1 (oscillator 1 alone) … 1 (oscillator 2 alone), added to each preset's balance.
    var oscMix: Float = 0
    /// Semitones added to oscillator 2's interval.
    var osc2Tune: Float = 0
    /// Level of the sub oscillator (a square an octave below oscillator 1), a share of the
    /// preset's oscillator levels.
    var sub: Float = 0
    /// Added to the preset's noise level (kept within 0…2).
    var noise: Float = 0
    /// Semitones added to the filter envelope's amount.
    var filterEnv: Float = 0
    /// Added to the filter's key tracking (kept within 0…1).
    var keyTrack: Float = 0

    /// Factors of the amplitude envelope's times and an offset to its sustain level.
    var ampAttack: Float = 1
    var ampDecay: Float = 1
    var ampSustain: Float = 0
    var ampRelease: Float = 1
    /// The same for the filter envelope.
    var filterAttack: Float = 1
    var filterDecay: Float = 1
    var filterSustain: Float = 0
    var filterRelease: Float = 1

    /// The LFO's rate in hertz for every voice; 0: each preset's own rate.
    var lfoRate: Float = 0
    /// Semitones the LFO moves every cutoff at its peak (added to the preset's).
    var lfoCutoff: Float = 0
    /// How deep the LFO pulls the level down: 0 (not at all) … 1 (to silence at its trough).
    var tremolo: Float = 0

    /// Seconds a new note takes to slide from the channel's previous note to its own (0: none).
    var glide: Float = 0

    /// `timbre` with its envelopes shaped, for a note that starts now. The release times are
    /// scaled when the note is released (`releaseScales`).
    func shaped(_ timbre: Timbre) -> Timbre {
        var shaped = timbre
        shaped.ampAttack *= attack
        shaped.filterAttack *= attack
        if ampAttack != 1 { shaped.ampAttack *= ampAttack }
        if ampDecay != 1 { shaped.ampDecay *= ampDecay }
        if ampSustain != 0 { shaped.ampSustain = min(max(timbre.ampSustain + ampSustain, 0), 1) }
        if filterAttack != 1 { shaped.filterAttack *= filterAttack }
        if filterDecay != 1 { shaped.filterDecay *= filterDecay }
        if filterSustain != 0 { shaped.filterSustain = min(max(timbre.filterSustain + filterSustain, 0), 1) }
        return shaped
    }

    /// The factors of the amplitude and filter envelopes' release times, for a note released now.
    var releaseScales: (amp: Float, filter: Float) { (release * ampRelease, release * filterRelease) }

    /// A preset's resonance with the knob's offset.
    @inline(__always)
    func resonance(_ preset: Float) -> Float {
        min(max(preset + resonance, 0), 0.98)
    }

    /// The oscillators' levels of `timbre` with the mix moved: the preset's balance of its two
    /// oscillators, plus `oscMix`, at the preset's total level.
    @inline(__always)
    func oscillatorLevels(_ timbre: Timbre) -> (Float, Float) {
        guard oscMix != 0 else { return (timbre.osc1Level, timbre.osc2Level) }
        let total = timbre.osc1Level + timbre.osc2Level
        guard total > 0 else { return (0, 0) }
        let balance = min(max(timbre.osc2Level / total + oscMix, 0), 1)
        return (total * (1 - balance), total * balance)
    }

    /// The preset's noise level with the knob's offset.
    @inline(__always)
    func noiseLevel(_ timbre: Timbre) -> Float {
        noise == 0 ? timbre.noiseLevel : min(max(timbre.noiseLevel + noise, 0), 2)
    }

    /// Semitones to add to a voice's cutoff for the key-tracking offset (0 at the default).
    @inline(__always)
    func keyTrackOffset(_ timbre: Timbre, pitch: Float) -> Float {
        guard keyTrack != 0 else { return 0 }
        return (min(max(timbre.filterKeytrack + keyTrack, 0), 1) - timbre.filterKeytrack) * (pitch - 60)
    }
}
