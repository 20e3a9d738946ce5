import MIDICore

/// Remembers, for each held input note, the notes a processor sent for it, so the note-off
/// releases exactly those even if parameters changed while the key was down (no stuck notes).
/// Fixed storage, allocated once: `16 × 128 × fanout` slots.
///
/// - Thread: owner (the owning processor's thread: the MIDI input thread).
struct HeldNoteMap: Hashable, Sendable {
    private static let empty: UInt16 = 0xFFFF
    let fanout: Int
    private var slots: [UInt16]

    init(fanout: Int) {
        self.fanout = max(1, fanout)
        slots = Array(repeating: Self.empty, count: 16 * 128 * self.fanout)
    }

    /// Routes note-on, note-off and poly pressure through `map`, which emits the outputs of a note-on
    /// as (channel, note) pairs. Returns `false` (and does nothing) for other messages.
    mutating func route(_ event: TimedMIDI, into output: inout [TimedMIDI],
                        map: (_ channel: UInt8, _ note: UInt8, _ emit: (UInt8, UInt8) -> Void) -> Void) -> Bool {
        switch event.message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            release(channel: channel, note: note, velocity: 0, time: event.time, into: &output)
            let base = slotBase(channel, note)
            var count = 0
            map(channel, note) { outChannel, outNote in
                guard count < fanout else { return }
                slots[base + count] = UInt16(outChannel) << 8 | UInt16(outNote)
                count += 1
                output.append(TimedMIDI(time: event.time,
                                        message: .noteOn(channel: outChannel, note: outNote, velocity: velocity)))
            }
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            let velocity: UInt8 = if case .noteOff(_, _, let v) = event.message { v } else { 0 }
            release(channel: channel, note: note, velocity: velocity, time: event.time, into: &output)
        case .polyPressure(let channel, let note, let pressure):
            forEachOutput(channel, note) { outChannel, outNote in
                output.append(TimedMIDI(time: event.time,
                                        message: .polyPressure(channel: outChannel, note: outNote, pressure: pressure)))
            }
        default:
            return false
        }
        return true
    }

    private mutating func release(channel: UInt8, note: UInt8, velocity: UInt8, time: HostTime,
                                  into output: inout [TimedMIDI]) {
        forEachOutput(channel, note) { outChannel, outNote in
            output.append(TimedMIDI(time: time, message: .noteOff(channel: outChannel, note: outNote, velocity: velocity)))
        }
        let base = slotBase(channel, note)
        for index in base..<(base + fanout) { slots[index] = Self.empty }
    }

    private func forEachOutput(_ channel: UInt8, _ note: UInt8, _ body: (UInt8, UInt8) -> Void) {
        let base = slotBase(channel, note)
        for index in base..<(base + fanout) {
            let slot = slots[index]
            guard slot != Self.empty else { break }
            body(UInt8(slot >> 8), UInt8(slot & 0xFF))
        }
    }

    private func slotBase(_ channel: UInt8, _ note: UInt8) -> Int {
        (Int(channel & 0x0F) * 128 + Int(note & 0x7F)) * fanout
    }
}
