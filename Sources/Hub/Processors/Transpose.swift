import RenderCore

/// Shifts notes by a number of semitones; notes pushed outside 0…127 are dropped.
/// Other messages pass unchanged.
///
/// - Thread: MIDI input.
public struct Transpose: MIDIProcessor {
    public enum Parameter: Int { case semitones }

    public var parameters = ParameterValues([
        ParameterInfo(id: 0, name: "semitones", range: -48...48, defaultValue: 0, unit: .semitones),
    ])
    private var held = HeldNoteMap(fanout: 1)

    public init() {}

    public mutating func process(_ event: TimedMIDI, into output: inout [TimedMIDI]) {
        let shift = Int(parameters[Parameter.semitones.rawValue].rounded())
        let handled = held.route(event, into: &output) { channel, note, emit in
            if let shifted = UInt8.midiData(Int(note) + shift) { emit(channel, shifted) }
        }
        if !handled { output.append(event) }
    }
}
