import RenderCore

/// Plays a chord for every note: the note itself plus up to four intervals (parameters
/// `interval1`…`interval4`, semitones; 0 = slot unused). Duplicate and out-of-range notes are skipped.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct ChordGenerator: MIDIProcessor {
    public static let slots = 4
    public let parameterInfos: [ParameterInfo]
    private var held = HeldNoteMap(fanout: 1 + slots)

    /// `intervals`: semitones above (or below) the played note; at most four are used.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init(intervals: [Int]) {
        parameterInfos = (0..<Self.slots).map { slot in
            ParameterInfo(id: UInt32(slot), name: "interval\(slot + 1)", range: -24...24,
                          defaultValue: slot < intervals.count ? Float(intervals[slot]) : 0, unit: .semitones)
        }
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        // Read once per event (each a lookup in the graph's values), not per note and slot.
        let intervals: InlineArray<4, Int> = [Int(parameters[0].rounded()), Int(parameters[1].rounded()),
                                              Int(parameters[2].rounded()), Int(parameters[3].rounded())]
        let handled = held.route(event, into: &output) { channel, note, emit in
            emit(channel, note)
            for slot in 0..<Self.slots {
                let interval = intervals[slot]
                guard interval != 0, let chordNote = UInt8.midiData(Int(note) + interval),
                      !(0..<slot).contains(where: { intervals[$0] == interval }) else { continue }
                emit(channel, chordNote)
            }
        }
        if !handled { output.append(event) }
    }
}
