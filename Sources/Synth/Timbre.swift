import SynthKernels

/// Oscillator waveforms (`SynthKernels.Waveform`, where the oscillators' loops are).
public typealias Waveform = SynthKernels.Waveform

/// - Thread: any (a plain value).
extension Waveform {
    /// The waveform a preset file names.
    init?(name: String) {
        switch name {
        case "sine": self = .sine
        case "triangle": self = .triangle
        case "saw": self = .saw
        case "square", "pulse": self = .square
        default: return nil
        }
    }
}

/// Response of the voice filter.
/// - Thread: any (a plain value).
public enum FilterMode: UInt8, Sendable, CaseIterable {
    case lowpass, bandpass, highpass

    init?(name: String) {
        switch name {
        case "lowpass": self = .lowpass
        case "bandpass": self = .bandpass
        case "highpass": self = .highpass
        default: return nil
        }
    }
}

/// Everything a voice needs to know about its sound: a plain value copied into the voice
/// at note-on, so the render loop never follows a reference. Loaded from preset files.
///
/// - Thread: any (a plain value).
public struct Timbre: Sendable, Equatable {
    public var osc1Wave: Waveform = .saw
    public var osc1Level: Float = 0.5
    public var osc1Semitones: Float = 0
    public var osc1Cents: Float = 0
    public var osc1PulseWidth: Float = 0.5
    public var osc2Wave: Waveform = .square
    public var osc2Level: Float = 0
    public var osc2Semitones: Float = 0
    public var osc2Cents: Float = 0
    public var osc2PulseWidth: Float = 0.5
    public var noiseLevel: Float = 0

    public var filterMode: FilterMode = .lowpass
    /// Cutoff in hertz at note 60 before modulation.
    public var filterCutoff: Float = 8000
    /// 0 (none) … 1 (self-oscillation edge).
    public var filterResonance: Float = 0
    /// 0 (fixed cutoff) … 1 (cutoff follows the note).
    public var filterKeytrack: Float = 0
    /// Semitones the filter envelope adds at its peak.
    public var filterEnvAmount: Float = 0
    /// Semitones added to the cutoff at full velocity.
    public var filterVelocity: Float = 0
    public var filterAttack: Float = 0.001
    public var filterDecay: Float = 0.3
    public var filterSustain: Float = 1
    public var filterRelease: Float = 0.3

    public var ampAttack: Float = 0.002
    public var ampDecay: Float = 0.3
    public var ampSustain: Float = 1
    public var ampRelease: Float = 0.2

    public var lfoRate: Float = 5
    /// Vibrato depth in cents without the mod wheel.
    public var lfoPitch: Float = 0
    /// Extra vibrato depth in cents at full mod wheel.
    public var lfoWheelPitch: Float = 30
    /// Cutoff modulation depth in semitones.
    public var lfoFilter: Float = 0

    /// Semitones added at note-on, decaying to 0 (drum sweeps).
    public var pitchEnvAmount: Float = 0
    /// Seconds for the pitch envelope to fall by 60 dB.
    public var pitchEnvTime: Float = 0.05

    /// 0 (velocity ignored) … 1 (gain follows velocity squared).
    public var velocitySensitivity: Float = 0.8
    /// Linear output gain.
    public var gain: Float = 1
    /// -1 (left) … 1 (right), added to the channel's pan.
    public var pan: Float = 0
    /// For drum sounds: the note the sound plays, whatever key triggered it (-1: the key).
    public var fixedNote: Float = -1
    /// Drum choke group: a new sound fades other sounding voices of the same group (0: none).
    public var chokeGroup: Float = 0
    /// Drum sounds ignore note-off and play their envelope out.
    public var ignoresNoteOff: Bool = false

    public init() {}

    /// A plain, bright sound used when no preset covers a program.
    public static let fallback = Timbre()
}
