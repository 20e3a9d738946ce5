import MIDICore
import Testing
@testable import RTPMIDI

@Suite struct PacketCodecTests {
    @Test func headerAndShortCommandSection() {
        let packet = RTPMIDIPacket(sequenceNumber: 0x1234, timestamp: 0x0102_0304, ssrc: 0xAABB_CCDD,
                                   commands: [RTPMIDICommand(message: .noteOn(channel: 2, note: 60, velocity: 100))])
        #expect(packet.encoded() == hexBytes("80 E1 1234 01020304 AABBCCDD 03 92 3C 64"))
    }

    @Test func anEmptyPacketHasMarkerZero() {
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 2, ssrc: 3, commands: [])
        #expect(packet.encoded() == hexBytes("80 61 0001 00000002 00000003 00"))
    }

    @Test func runningStatusAndOneByteDeltas() throws {
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 0, ssrc: 0, commands: [
            RTPMIDICommand(message: .noteOn(channel: 0, note: 60, velocity: 100)),
            RTPMIDICommand(delta: 5, message: .noteOn(channel: 0, note: 64, velocity: 90)),
            RTPMIDICommand(delta: 0, message: .clock),
            RTPMIDICommand(delta: 127, message: .noteOn(channel: 0, note: 67, velocity: 80)),
            RTPMIDICommand(delta: 1, message: .songPosition(4)),
            RTPMIDICommand(delta: 1, message: .noteOn(channel: 0, note: 72, velocity: 70)),
        ])
        // The clock keeps running status; the song position ends it.
        let list = hexBytes("90 3C 64  05 40 5A  00 F8  7F 43 50  01 F2 04 00  01 90 48 46")
        #expect(packet.encoded() == hexBytes("80 E1 0001 00000000 00000000 80 \(String(list.count, radix: 16))") + list)
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }

    @Test(arguments: [(UInt32(0x7F), "7F"), (0x80, "81 00"), (0x3FFF, "FF 7F"), (0x4000, "81 80 00"), (0x0FFF_FFFF, "FF FF FF 7F")])
    func deltaTimesAreBigEndianSevenBitGroups(delta: UInt32, bytes: String) throws {
        var out: [UInt8] = []
        DeltaTime.append(delta, to: &out)
        #expect(out == hexBytes(bytes))
        var reader = ByteReader(out, failure: .badDeltaTime)
        #expect(try DeltaTime.read(from: &reader) == delta)
    }

    @Test func aFirstDeltaSetsZ() throws {
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 0, ssrc: 0,
                                   commands: [RTPMIDICommand(delta: 300, message: .start)])
        #expect(Array(packet.encoded()[12...]) == hexBytes("23 82 2C FA"))
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }

    @Test func aLongListUsesTheTwelveBitLength() throws {
        let commands = (0..<20).map { RTPMIDICommand(delta: 1, message: .controlChange(channel: 1, controller: UInt8($0), value: 9)) }
        var packet = RTPMIDIPacket(sequenceNumber: 9, timestamp: 0, ssrc: 0, commands: commands)
        packet.commands[0].delta = 0
        let bytes = packet.encoded()
        #expect(bytes[12] == 0x80 && bytes[13] == 3 + 19 * 3)
        #expect(try RTPMIDIPacket(decoding: bytes) == packet)
    }

    @Test func everyMessageKindRoundTrips() throws {
        let messages: [MIDIMessage] = [
            .noteOff(channel: 1, note: 60, velocity: 64), .noteOn(channel: 15, note: 127, velocity: 0),
            .polyPressure(channel: 2, note: 10, pressure: 20), .controlChange(channel: 3, controller: 7, value: 100),
            .programChange(channel: 4, program: 42), .channelPressure(channel: 5, pressure: 99),
            .pitchBend(channel: 6, value: 16383), .sysEx([0x7E, 0x7F, 0x09, 0x01]), .mtcQuarterFrame(0x71),
            .songPosition(300), .songSelect(3), .tuneRequest, .clock, .start, .continue, .stop, .activeSensing, .reset,
        ]
        let packet = RTPMIDIPacket(sequenceNumber: 7, timestamp: 8, ssrc: 9,
                                   commands: messages.enumerated().map { RTPMIDICommand(delta: UInt32($0.offset), message: $0.element) })
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }

    @Test func sysExSegmentsAreFramedAsRFC6295Says() throws {
        let commands = RTPMIDICommand.sysExSegments([1, 2, 3, 4, 5], maximumSegmentLength: 2)
        #expect(commands.map(\.sysExSegment) == [.first, .middle, .last])
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 0, ssrc: 0,
                                   commands: commands + [RTPMIDICommand(message: .sysEx([6]), sysExSegment: .cancel)])
        #expect(Array(packet.encoded()[14...]) == hexBytes("F0 01 02 F0  00 F7 03 04 F0  00 F7 05 F7  00 F7 06 F4"))
        #expect(try RTPMIDIPacket(decoding: packet.encoded()) == packet)
    }

    @Test func realTimeInsideASysExComesAfterIt() throws {
        let bytes = hexBytes("80 61 0001 00000000 00000000 05 F0 01 F8 02 F7")
        #expect(try RTPMIDIPacket(decoding: bytes).commands == [
            RTPMIDICommand(message: .sysEx([1, 2])), RTPMIDICommand(message: .clock),
        ])
    }

    @Test func paddingCSRCsAndExtensionAreSkipped() throws {
        // V=2 P X CC=1, a CSRC, an extension of one word, the command section, 3 bytes of padding.
        let bytes = hexBytes("B1 61 0001 00000000 00000000  11111111  BEDE 0001 22222222  03 F8 00 FA  00 00 03")
        #expect(try RTPMIDIPacket(decoding: bytes).commands == [RTPMIDICommand(message: .clock), RTPMIDICommand(message: .start)])
    }

    @Test(arguments: [
        ("80 61 0001 00000000 000000", RTPMIDIDecodingError.truncatedHeader),
        ("40 61 0001 00000000 00000000 00", .badVersion(1)),
        ("80 61 0001 00000000 00000000 05 90 3C", .commandSectionOverrunsPacket(length: 5, available: 2)),
        ("80 61 0001 00000000 00000000 02 3C 40", .missingStatus),
        ("80 61 0001 00000000 00000000 02 90 3C", .truncatedCommand),
        ("80 61 0001 00000000 00000000 01 F4", .undefinedStatus(0xF4)),
        ("80 61 0001 00000000 00000000 03 F0 01 02", .unterminatedSysEx),
        ("80 61 0001 00000000 00000000 03 F0 90 F7", .statusInsideSysEx(0x90)),
        ("80 61 0001 00000000 00000000 26 F8 FF FF FF FF 00", .badDeltaTime),
        ("80 61 0001 00000000 00000000 01 F8 00", .trailingBytes(1)),
        ("A0 61 0001 00000000 00000000 01 F8 40", .badRTPFraming),
        // The journal: cut off, a channel count past the bytes, LENGTH too short,
        // a chapter N with more logs than bytes, one channel twice.
        ("80 61 0001 00000000 00000000 40 20 00", .truncatedJournal),
        ("80 61 0001 00000000 00000000 40 2F 0000 0006 08 00 66 85", .truncatedJournal),
        ("80 61 0001 00000000 00000000 40 20 0000 0002 08", .badJournalLength),
        ("80 61 0001 00000000 00000000 40 20 0000 0006 08 7F F0 00", .absurdCount),
        ("80 61 0001 00000000 00000000 40 21 0000 0006 08 00 66 85 0006 08 00 66 85", .repeatedChannel(0)),
        ("80 61 0001 00000000 00000000 40 20 0000 0007 08 00 66 85 00", .badJournalLength),
    ])
    func malformedPacketsThrowWhatWasWrong(hex: String, error: RTPMIDIDecodingError) throws {
        #expect(throws: error) { try RTPMIDIPacket(decoding: hexBytes(hex)) }
        #expect(!error.description.isEmpty)
    }
}
