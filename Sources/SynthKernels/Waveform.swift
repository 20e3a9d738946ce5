/// Oscillator waveforms.
public enum Waveform: UInt8, Sendable, CaseIterable {
    case sine, triangle, saw, square
}
