import RenderCore

/// Shifts notes by a number of semitones; notes pushed outside 0…127 are dropped.
/// Other messages pass unchanged.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct Transpose: MIDIProcessor {
    public enum Parameter: Int { case semitones }

    public let parameterInfos = [
        ParameterInfo(id: 0, name: "semitones", range: -48...48, defaultValue: 0, unit: .semitones),
    ]
    private var held = HeldNoteMap(fanout: 1)

    /// A shift of 0 semitones.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init() {}

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        let shift = Int(parameters[Parameter.semitones.rawValue].rounded())
        let handled = held.route(event, into: &output) { channel, note, emit in
            if let shifted = UInt8.midiData(Int(note) + shift) { emit(channel, shifted) }
        }
        if !handled { output.append(event) }
    }
}
