import MIDICore
import Testing
import TestSupport
@testable import RTPMIDI

@Suite struct JournalSenderTests {
    @Test func nothingRecordedMeansNoJournal() {
        #expect(JournalSender().journal() == nil)
    }

    @Test func theJournalHoldsTheStateSinceTheCheckpoint() throws {
        var sender = JournalSender()
        sender.record(.controlChange(channel: 0, controller: 0, value: 1), sequenceNumber: 10)
        sender.record(.programChange(channel: 0, program: 5), sequenceNumber: 10)
        sender.record(.noteOn(channel: 0, note: 60, velocity: 100), sequenceNumber: 11)
        sender.record(.noteOn(channel: 0, note: 62, velocity: 90), sequenceNumber: 11)
        sender.record(.noteOff(channel: 0, note: 62, velocity: 0), sequenceNumber: 12)
        sender.record(.pitchBend(channel: 0, value: 100), sequenceNumber: 12)
        sender.record(.start, sequenceNumber: 12)
        sender.record(.clock, sequenceNumber: 12)
        let journal = try #require(sender.journal())
        #expect(journal.checkpoint == 9)
        #expect(journal.channels == [ChannelJournal(
            channel: 0,
            program: ChapterP(program: 5, bank: ProgramBank(msb: 1, lsb: 0)),
            controllers: ChapterC(logs: [ChapterC.ControllerLog(controller: 0, value: 1)]),
            pitchWheel: ChapterW(value: 100, inPreviousPacket: true),
            notes: ChapterN(noteLogs: [ChapterN.NoteLog(note: 60, velocity: 100)], offNotes: NoteSet([62]), offNotesInPreviousPacket: true)
        )])
        #expect(journal.system == SystemJournal(sequencer: ChapterQ(running: true, clocks: 1, inPreviousPacket: true)))
    }

    @Test func anAcknowledgementTrimsTheHistory() throws {
        var sender = JournalSender()
        sender.record(.controlChange(channel: 2, controller: 7, value: 50), sequenceNumber: 1)
        sender.record(.noteOn(channel: 2, note: 60, velocity: 100), sequenceNumber: 2)
        sender.acknowledge(through: 1)
        let journal = try #require(sender.journal())
        #expect(journal.checkpoint == 1)
        #expect(journal.channels == [ChannelJournal(channel: 2, notes: ChapterN(noteLogs: [ChapterN.NoteLog(note: 60, velocity: 100, inPreviousPacket: true)]))])
        sender.acknowledge(through: 0)  // behind the checkpoint: nothing changes
        #expect(sender.journal() == journal)
        sender.acknowledge(through: 2)
        #expect(sender.journal() == nil)
    }

    @Test func allNotesOffEndsTheNotesSoundingBeforeTheCheckpoint() throws {
        var sender = JournalSender()
        sender.record(.noteOn(channel: 0, note: 60, velocity: 100), sequenceNumber: 1)
        sender.acknowledge(through: 1)
        sender.record(.controlChange(channel: 0, controller: 123, value: 0), sequenceNumber: 2)
        #expect(sender.journal()?.channels.first?.notes?.offNotes == NoteSet([60]))
        #expect(sender.journal()?.channels.first?.controllers == nil)
    }

    @Test func withoutFeedbackTheCheckpointFollowsAcrossTheWrap() throws {
        var sender = JournalSender()
        sender.record(.programChange(channel: 1, program: 3), sequenceNumber: 0)
        for sequenceNumber in 1...70_000 {
            sender.record(.clock, sequenceNumber: UInt16(truncatingIfNeeded: sequenceNumber))
        }
        let journal = try #require(sender.journal())
        #expect(SequenceNumber.distance(from: journal.checkpoint, to: UInt16(truncatingIfNeeded: 70_000)) <= 2 * JournalSender.maximumHistory)
        #expect(journal.channels.first?.program?.program == 3)
    }

    /// The bytes written per packet, each channel's reused while it holds, are the
    /// journal's own encoding: through acknowledgements, the S bits of the packet before,
    /// and the checkpoint moved on without feedback.
    @Test func theReusedEncodingIsTheJournals() {
        var sender = JournalSender()
        var random = SeededGenerator(seed: 27)
        for sequenceNumber in UInt16(1)...20_000 {
            var reused: [UInt8] = []
            let wrote = sender.encodeJournal(into: &reused)
            var expected: [UInt8] = []
            sender.journal()?.encode(into: &expected)
            #expect(wrote == !expected.isEmpty)
            #expect(reused == expected, "packet \(sequenceNumber)")
            if reused != expected { return }
            let channel = UInt8.random(in: 0...15, using: &random)
            let note = UInt8.random(in: 40...80, using: &random)
            let message: MIDIMessage = switch Int.random(in: 0..<4, using: &random) {
            case 0: .noteOff(channel: channel, note: note, velocity: 0)
            case 1: .controlChange(channel: channel, controller: .random(in: 0...10, using: &random), value: 1)
            default: .noteOn(channel: channel, note: note, velocity: 90)
            }
            if Int.random(in: 0..<3, using: &random) > 0 { sender.record(message, sequenceNumber: sequenceNumber) }
            if sequenceNumber < 1000, sequenceNumber % 7 == 0 { sender.acknowledge(through: sequenceNumber &- 2) }
        }
    }
}
