import RenderCore

extension SoundShaping {
    /// Full-depth swings of `lfo depth` at 1: cents of pitch, semitones of cutoff.
    static let lfoPitchCents: Float = 100
    static let lfoCutoffSemitones: Float = 24

    /// The named values of the knobs that pick one of a few things: an oscillator's wave
    /// (`preset`: the one the preset has), what the LFO moves.
    static let choices: [String: [ParameterChoice]] = {
        let waves = ["preset", "sine", "triangle", "saw", "square"].enumerated().map { ParameterChoice($1, Float($0)) }
        let targets = ["pitch", "cutoff", "amplitude"].enumerated().map { ParameterChoice($1, Float($0)) }
        return ["osc1 wave": waves, "osc2 wave": waves, "lfo target": targets]
    }()

    /// The parameters, after the synth's first two (ids from `firstID`, in the order of
    /// `SynthNode.Parameter`). At their defaults every preset sounds as it is.
    /// - Thread: any.
    static func parameterInfos(firstID: UInt32) -> [ParameterInfo] {
        let knobs: [(String, ClosedRange<Float>, Float, ParameterUnit)] = [
            ("brightness", -48...48, 0, .semitones),
            ("resonance", -1...1, 0, .generic),
            ("attack", 0.1...10, 1, .generic),
            ("release", 0.1...10, 1, .generic),
            ("detune", 0...100, 0, .generic),
            ("vibrato", 0...100, 0, .generic),
            // Oscillators.
            ("osc1 wave", 0...4, 0, .generic),
            ("osc2 wave", 0...4, 0, .generic),
            ("osc mix", -1...1, 0, .generic),
            ("osc2 tune", -24...24, 0, .semitones),
            ("sub", 0...1, 0, .generic),
            ("noise", -1...1, 0, .generic),
            // Filter.
            ("cutoff", -48...48, 0, .semitones),
            ("filter env", -48...48, 0, .semitones),
            ("key track", -1...1, 0, .generic),
            // Envelopes.
            ("amp attack", 0.1...10, 1, .generic),
            ("amp decay", 0.1...10, 1, .generic),
            ("amp sustain", -1...1, 0, .generic),
            ("amp release", 0.1...10, 1, .generic),
            ("filter attack", 0.1...10, 1, .generic),
            ("filter decay", 0.1...10, 1, .generic),
            ("filter sustain", -1...1, 0, .generic),
            ("filter release", 0.1...10, 1, .generic),
            // LFO.
            ("lfo rate", 0...20, 0, .hertz),
            ("lfo sync", 0...1, 0, .boolean),
            ("lfo beats", 0.0625...16, 1, .beats),
            ("lfo depth", 0...1, 0, .generic),
            ("lfo target", 0...2, 0, .generic),
            // Glide.
            ("glide", 0...5, 0, .seconds),
        ]
        return knobs.enumerated().map { index, knob in
            ParameterInfo(id: firstID + UInt32(index), name: knob.0, range: knob.1, defaultValue: knob.2, unit: knob.3,
                          choices: choices[knob.0] ?? [])
        }
    }
}
