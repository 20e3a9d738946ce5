import MIDICore
import Testing
@testable import RTPMIDI

/// Packets a Mac's Network session sent (captured in pymidi's tests,
/// pymidi/tests/packets_test.py), with the journals Apple's sender writes.
@Suite struct ApplePacketTests {
    @Test func noteOnWithAJournalOfNoteOffs() throws {
        let packet = try RTPMIDIPacket(decoding: hexBytes("8061427a4b9f303647d8109643903026204276000608006685"))
        #expect(packet.sequenceNumber == 17018)
        #expect(packet.timestamp == 0x4B9F_3036)
        #expect(packet.ssrc == 1_205_342_358)
        #expect(packet.commands == [RTPMIDICommand(message: .noteOn(channel: 0, note: 48, velocity: 38))])
        let journal = try #require(packet.journal)
        #expect(journal.checkpoint == 0x4276)
        #expect(journal.system == nil)
        #expect(journal.channels == [
            ChannelJournal(channel: 0, notes: ChapterN(offNotes: NoteSet([48, 53, 55]), offNotesInPreviousPacket: true)),
        ])
    }

    @Test func runningStatusAndADeltaTime() throws {
        let packet = try RTPMIDIPacket(decoding: hexBytes("8061429a51d2dc8747d8109646903e310a403b21427c00090881673c250d50c8060880440e"))
        #expect(packet.commands == [
            RTPMIDICommand(message: .noteOn(channel: 0, note: 62, velocity: 49)),
            RTPMIDICommand(delta: 10, message: .noteOn(channel: 0, note: 64, velocity: 59)),
        ])
        let journal = try #require(packet.journal)
        #expect(journal.channels.map(\.channel) == [0, 9])
        let piano = try #require(journal.channels[0].notes)
        #expect(piano.noteLogs == [ChapterN.NoteLog(note: 60, velocity: 37, playable: false, inPreviousPacket: true)])
        #expect(piano.offNotes == NoteSet([52, 53, 55, 57, 59]))
        #expect(journal.channels[1].notes?.offNotes == NoteSet([36, 37, 38]))
    }

    @Test func controlChangeWithChaptersCAndN() throws {
        let packet = try RTPMIDIPacket(decoding: hexBytes("80614ba55944067e47d8109643b06c00204ba0000948006c7f807708"))
        #expect(packet.commands == [RTPMIDICommand(message: .controlChange(channel: 0, controller: 108, value: 0))])
        let channel = try #require(packet.journal?.channels.first)
        #expect(channel.controllers == ChapterC(logs: [ChapterC.ControllerLog(controller: 108, value: 127, inPreviousPacket: true)]))
        #expect(channel.notes?.offNotes == NoteSet([60]))
    }

    @Test func noJournal() throws {
        let packet = try RTPMIDIPacket(decoding: hexBytes("806142a0550d8a5a47d8109603903446"))
        #expect(packet.journal == nil)
        #expect(packet.commands == [RTPMIDICommand(message: .noteOn(channel: 0, note: 52, velocity: 70))])
    }

    @Test(arguments: [
        "8061427a4b9f303647d8109643903026204276000608006685",
        "8061429a51d2dc8747d8109646903e310a403b21427c00090881673c250d50c8060880440e",
        "80614ba55944067e47d8109643b06c00204ba0000948006c7f807708",
        "806142a0550d8a5a47d8109603903446",
    ])
    func reencodesToTheSameValue(hex: String) throws {
        let packet = try RTPMIDIPacket(decoding: hexBytes(hex))
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }
}
