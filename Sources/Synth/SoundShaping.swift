import RenderCore

/// The built-in synth's knobs over every preset it plays: a musician's controls that move
/// the presets' own values rather than replace them. Brightness, resonance, detune and
/// vibrato move sounding notes (each control period); attack and release scale the
/// envelopes of the notes that start after the change.
///
/// - Thread: render (a plain value in the synth's render state).
struct SoundShaping {
    /// Semitones added to every filter cutoff.
    var brightness: Float = 0
    /// Added to every filter resonance (kept within 0…0.98, the presets' range).
    var resonance: Float = 0
    /// Factors of the amplitude and filter envelopes' attack and release times.
    var attack: Float = 1
    var release: Float = 1
    /// Cents the two oscillators move apart (each half of it).
    var detune: Float = 0
    /// Cents of vibrato added to the preset's.
    var vibrato: Float = 0

    /// The parameters, after the synth's first two (ids from `firstID`).
    static func parameterInfos(firstID: UInt32) -> [ParameterInfo] {
        [
            ParameterInfo(id: firstID, name: "brightness", range: -48...48, defaultValue: 0, unit: .semitones),
            ParameterInfo(id: firstID + 1, name: "resonance", range: -1...1, defaultValue: 0, unit: .generic),
            ParameterInfo(id: firstID + 2, name: "attack", range: 0.1...10, defaultValue: 1, unit: .generic),
            ParameterInfo(id: firstID + 3, name: "release", range: 0.1...10, defaultValue: 1, unit: .generic),
            ParameterInfo(id: firstID + 4, name: "detune", range: 0...100, defaultValue: 0, unit: .generic),
            ParameterInfo(id: firstID + 5, name: "vibrato", range: 0...100, defaultValue: 0, unit: .generic),
        ]
    }

    /// `timbre` with its envelope times scaled, for a note that starts now.
    func shaped(_ timbre: Timbre) -> Timbre {
        var shaped = timbre
        shaped.ampAttack *= attack
        shaped.filterAttack *= attack
        shaped.ampRelease *= release
        shaped.filterRelease *= release
        return shaped
    }

    /// A preset's resonance with the knob's offset.
    @inline(__always)
    func resonance(_ preset: Float) -> Float {
        min(max(preset + resonance, 0), 0.98)
    }
}
