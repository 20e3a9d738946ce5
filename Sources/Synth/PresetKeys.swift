/// The keys a preset section may set, with their allowed ranges.
/// - Thread: any (immutable).
enum PresetKey: @unchecked Sendable { // key paths are immutable
    case number(WritableKeyPath<Timbre, Float>, ClosedRange<Float>)
    case wave(WritableKeyPath<Timbre, Waveform>)
    case filterMode
    case noteOff

    static let all: [String: PresetKey] = [
        "osc1.wave": .wave(\.osc1Wave),
        "osc1.level": .number(\.osc1Level, 0...2),
        "osc1.semitones": .number(\.osc1Semitones, -48...48),
        "osc1.cents": .number(\.osc1Cents, -100...100),
        "osc1.pulse-width": .number(\.osc1PulseWidth, 0.05...0.95),
        "osc2.wave": .wave(\.osc2Wave),
        "osc2.level": .number(\.osc2Level, 0...2),
        "osc2.semitones": .number(\.osc2Semitones, -48...48),
        "osc2.cents": .number(\.osc2Cents, -100...100),
        "osc2.pulse-width": .number(\.osc2PulseWidth, 0.05...0.95),
        "noise.level": .number(\.noiseLevel, 0...2),
        "filter.mode": .filterMode,
        "filter.cutoff": .number(\.filterCutoff, 20...20_000),
        "filter.resonance": .number(\.filterResonance, 0...0.98),
        "filter.keytrack": .number(\.filterKeytrack, 0...1),
        "filter.env-amount": .number(\.filterEnvAmount, -96...96),
        "filter.velocity": .number(\.filterVelocity, -48...48),
        "filter.attack": .number(\.filterAttack, 0...20),
        "filter.decay": .number(\.filterDecay, 0...30),
        "filter.sustain": .number(\.filterSustain, 0...1),
        "filter.release": .number(\.filterRelease, 0...30),
        "amp.attack": .number(\.ampAttack, 0...20),
        "amp.decay": .number(\.ampDecay, 0...30),
        "amp.sustain": .number(\.ampSustain, 0...1),
        "amp.release": .number(\.ampRelease, 0...30),
        "lfo.rate": .number(\.lfoRate, 0.01...50),
        "lfo.pitch": .number(\.lfoPitch, 0...1200),
        "lfo.wheel-pitch": .number(\.lfoWheelPitch, 0...1200),
        "lfo.filter": .number(\.lfoFilter, 0...48),
        "pitch-env.amount": .number(\.pitchEnvAmount, -96...96),
        "pitch-env.time": .number(\.pitchEnvTime, 0.001...10),
        "velocity": .number(\.velocitySensitivity, 0...1),
        "gain": .number(\.gain, 0...4),
        "pan": .number(\.pan, -1...1),
        "note": .number(\.fixedNote, 0...127),
        "choke": .number(\.chokeGroup, 0...16),
        "note-off": .noteOff,
    ]

    /// Sets `key` to `text` in `timbre`, or returns what is wrong and how to fix it.
    func apply(_ text: String, to timbre: inout Timbre) -> (message: String, fix: String)? {
        switch self {
        case .number(let path, let range):
            guard let value = Float(text), value.isFinite else {
                return ("'\(text)' is not a number", "write a decimal number such as 0.5")
            }
            guard range.contains(value) else {
                return ("\(text) is out of range", "use a value from \(range.lowerBound) to \(range.upperBound)")
            }
            timbre[keyPath: path] = value
        case .wave(let path):
            guard let wave = Waveform(name: text) else {
                return ("unknown waveform '\(text)'", "use sine, triangle, saw or square")
            }
            timbre[keyPath: path] = wave
        case .filterMode:
            guard let mode = FilterMode(name: text) else {
                return ("unknown filter mode '\(text)'", "use lowpass, bandpass or highpass")
            }
            timbre.filterMode = mode
        case .noteOff:
            switch text {
            case "ignore": timbre.ignoresNoteOff = true
            case "release": timbre.ignoresNoteOff = false
            default: return ("note-off must be 'ignore' or 'release', not '\(text)'", "write note-off = ignore or note-off = release")
            }
        }
        return nil
    }
}
