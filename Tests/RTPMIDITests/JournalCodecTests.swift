import MIDICore
import Testing
@testable import RTPMIDI

@Suite struct JournalCodecTests {
    static let everyChapter = RecoveryJournal(
        checkpoint: 0xFFFE,
        channels: [
            ChannelJournal(
                channel: 3,
                program: ChapterP(program: 5, bank: ProgramBank(msb: 1, lsb: 2)),
                controllers: ChapterC(logs: [ChapterC.ControllerLog(controller: 7, value: 90),
                                             ChapterC.ControllerLog(controller: 64, value: 127, inPreviousPacket: true)]),
                pitchWheel: ChapterW(value: 0x2001),
                notes: ChapterN(noteLogs: [ChapterN.NoteLog(note: 60, velocity: 100)], offNotes: NoteSet([62, 127]))
            ),
            ChannelJournal(channel: 9, program: ChapterP(program: 0)),
        ],
        system: SystemJournal(sequencer: ChapterQ(running: true, clocks: 0x7FFFF, timeTools: 0xABCDEF))
    )

    @Test func theBytesOfEveryChapter() {
        var out: [UInt8] = []
        Self.everyChapter.encode(into: &out)
        #expect(out == hexBytes("""
            61 FFFE
            90 08  DF FFFF ABCDEF
            18 1A D8  85 81 02  01 87 5A 40 7F  81 40  81 7F BC E4 02 00 00 00 00 00 00 00 01
            C8 06 80  80 00 00
            """))
    }

    @Test func everyChapterRoundTrips() throws {
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 2, ssrc: 3, commands: [], journal: Self.everyChapter)
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }

    @Test func chapterNWithAllNotesOn() throws {
        let chapter = ChapterN(noteLogs: (0...127).map { ChapterN.NoteLog(note: $0, velocity: 1) })
        var out: [UInt8] = []
        chapter.encode(into: &out)
        #expect(Array(out.prefix(2)) == [0xFF, 0xF0] && out.count == 2 + 256)
        var reader = ByteReader(out, failure: .truncatedJournal)
        #expect(try ChapterN(decoding: &reader) == chapter)
    }

    @Test func chapterNWith127LogsAndNoOffBitsIsNot128() throws {
        let chapter = ChapterN(noteLogs: (0...126).map { ChapterN.NoteLog(note: $0, velocity: 1) })
        var out: [UInt8] = []
        chapter.encode(into: &out)
        #expect(Array(out.prefix(2)) == [0xFF, 0xF1])
        var reader = ByteReader(out, failure: .truncatedJournal)
        #expect(try ChapterN(decoding: &reader) == chapter)
    }

    @Test func skippedChaptersMAndDAndTrailingETA() throws {
        // System journal: D (B and G logs), V, Q; channel journal: M (4 bytes), W, then T.
        let bytes = hexBytes("""
            80 61 0001 00000000 00000000 40
            E0 0000
            F0 07  E0 81 82  81  C0
            00 0A 32  80 04 00 00  81 40  85
            """)
        let journal = try #require(try RTPMIDIPacket(decoding: bytes).journal)
        #expect(journal.system?.sequencer == ChapterQ(running: true))
        #expect(journal.channels == [ChannelJournal(channel: 0, pitchWheel: ChapterW(value: 8193))])
    }

    @Test func chapterQIsNotFoundBehindUndefinedCommandLogs() throws {
        let bytes = hexBytes("80 61 0001 00000000 00000000 40  C0 0000  D0 05 88 00 C0")
        #expect(try RTPMIDIPacket(decoding: bytes).journal?.system == SystemJournal(sequencer: nil))
    }
}
