import MIDICore
import Testing
@testable import RtMidiBackend

/// The inbox between JACK's process thread and the owner: a lock-free ring of bytes. A full
/// ring drops whole events (counted) and never waits; what it kept is parsed in order, with
/// running status and a SysEx split over JACK events, and each event's time since the one before.
@Suite struct JackMIDIInboxTests {
    static func receive(_ bytes: [UInt8], _ seconds: Double, into inbox: JackMIDIInbox) {
        bytes.withUnsafeBufferPointer { inbox.receive($0, secondsSincePrevious: seconds) }
    }

    @Test func eventsComeOutParsedInOrderWithTheirTimes() {
        let inbox = JackMIDIInbox(capacity: 16, onEvents: nil)
        Self.receive([0x90, 60, 100, 62, 90], 0.5, into: inbox)  // running status: two notes in one event
        Self.receive([0xF0, 0x7D, 0x01], 0.25, into: inbox)
        Self.receive([0x02, 0xF7], 0.125, into: inbox)
        var events: [JackMIDIEvent] = []
        inbox.drain(into: &events)
        #expect(events == [
            JackMIDIEvent(message: .noteOn(channel: 0, note: 60, velocity: 100), secondsSincePrevious: 0),
            JackMIDIEvent(message: .noteOn(channel: 0, note: 62, velocity: 90), secondsSincePrevious: 0),
            JackMIDIEvent(message: .sysEx([0x7D, 0x01, 0x02]), secondsSincePrevious: 0.125),
        ])
        #expect(inbox.droppedCount == 0)
    }

    @Test func aFullInboxDropsWholeEventsAndKeepsTheRest() {
        let inbox = JackMIDIInbox(capacity: 1, onEvents: nil)  // 64 bytes: four notes of 13, then no room
        for note: UInt8 in 0..<10 { Self.receive([0x90, note, 64], 0.001, into: inbox) }
        var events: [JackMIDIEvent] = []
        inbox.drain(into: &events)
        #expect(events.map(\.message) == (0..<4).map { .noteOn(channel: 0, note: $0, velocity: 64) })
        #expect(inbox.droppedCount == 6)
        Self.receive([0x80, 1, 0], 0.001, into: inbox)  // room again once drained
        inbox.drain(into: &events)
        #expect(events.last?.message == .noteOff(channel: 0, note: 1, velocity: 0))
    }
}
