@testable import ALSA
import MIDICore
import Testing

/// Encodes a message into an ALSA event and decodes it back, as the kernel would
/// hand it to a receiver (the source is the event's own source field, 0:0 here).
private func roundTrip(_ message: MIDIMessage) throws -> SeqEvent? {
    var assembler = SysExAssembler()
    return try SeqEventCodec.withEvent(for: message) { event in
        SeqEventCodec.decode(event, sysEx: &assembler)
    }
}

@Test(arguments: [
    MIDIMessage.noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 15, note: 127, velocity: 0),
    .noteOff(channel: 9, note: 36, velocity: 64), .polyPressure(channel: 2, note: 61, pressure: 5),
    .controlChange(channel: 3, controller: 123, value: 0), .programChange(channel: 4, program: 127),
    .channelPressure(channel: 5, pressure: 99), .pitchBend(channel: 6, value: 0),
    .pitchBend(channel: 6, value: 8192), .pitchBend(channel: 6, value: 16383),
    .sysEx([0x7E, 0x7F, 0x09, 0x01]), .sysEx([]), .mtcQuarterFrame(0x35), .songPosition(16383),
    .songSelect(7), .tuneRequest, .clock, .start, .continue, .stop, .activeSensing, .reset,
])
func messagesSurviveTheTripThroughAnALSAEvent(message: MIDIMessage) throws {
    let decoded = try roundTrip(message)
    guard case .message(let back, _, _) = decoded else {
        Issue.record("decoded as \(String(describing: decoded))")
        return
    }
    #expect(back == message)
}

@Test func pitchBendCentreIsZeroInALSA() throws {
    let value = try SeqEventCodec.withEvent(for: .pitchBend(channel: 0, value: 8192)) { $0.data.control.value }
    #expect(value == 0)
    let lowest = try SeqEventCodec.withEvent(for: .pitchBend(channel: 0, value: 0)) { $0.data.control.value }
    #expect(lowest == -8192)
}

@Test func sysExTravelsWithItsFramingBytes() throws {
    let bytes = try SeqEventCodec.withEvent(for: .sysEx([0x41, 0x10])) { event in
        Array(UnsafeRawBufferPointer(start: event.data.ext.ptr, count: Int(event.data.ext.len)))
    }
    #expect(bytes == [0xF0, 0x41, 0x10, 0xF7])
}

/// Found while writing `FuzzSeqEvent`: a pitch-bend event's value is any 32-bit number the sending
/// client chose; Int32.max overflowed the conversion and trapped. It reads as the top of the range.
@Test func aPitchBendValueAtTheEndOfItsIntegerIsClamped() {
    for (value, expected) in [(Int32.max, UInt16(16383)), (Int32.min, 0)] {
        var wire = SeqEventWire.bytes(for: .pitchBend(channel: 2, value: 0), from: SeqAddress(client: 20, port: 0))
        // `snd_seq_event_t`: 16 bytes of header, then `data.control`: channel, 3 unused, param, value.
        withUnsafeBytes(of: value.littleEndian) { wire.replaceSubrange(24..<28, with: $0) }
        var assembler = SysExAssembler()
        let decoded = wire.withUnsafeBytes { SeqEventWire.decode($0, sysEx: &assembler) }
        #expect(decoded == [.message(.pitchBend(channel: 2, value: expected), source: SeqAddress(client: 20, port: 0), time: .tick(0))])
    }
}
