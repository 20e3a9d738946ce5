import Testing
@testable import MIDICore

@Suite struct MIDIMessageEncodingTests {
    static let cases: [(MIDIMessage, [UInt8])] = [
        (.noteOff(channel: 1, note: 60, velocity: 64), [0x81, 60, 64]),
        (.noteOn(channel: 15, note: 127, velocity: 0), [0x9F, 127, 0]),
        (.polyPressure(channel: 2, note: 10, pressure: 20), [0xA2, 10, 20]),
        (.controlChange(channel: 3, controller: 7, value: 100), [0xB3, 7, 100]),
        (.programChange(channel: 4, program: 42), [0xC4, 42]),
        (.channelPressure(channel: 5, pressure: 99), [0xD5, 99]),
        (.pitchBend(channel: 6, value: 8192), [0xE6, 0x00, 0x40]),
        (.pitchBend(channel: 0, value: 16383), [0xE0, 0x7F, 0x7F]),
        (.sysEx([0x7E, 0x7F, 0x09, 0x01]), [0xF0, 0x7E, 0x7F, 0x09, 0x01, 0xF7]),
        (.sysEx([]), [0xF0, 0xF7]),
        (.mtcQuarterFrame(0x71), [0xF1, 0x71]),
        (.songPosition(300), [0xF2, 0x2C, 0x02]),
        (.songSelect(3), [0xF3, 3]),
        (.tuneRequest, [0xF6]),
        (.clock, [0xF8]), (.start, [0xFA]), (.continue, [0xFB]), (.stop, [0xFC]),
        (.activeSensing, [0xFE]), (.reset, [0xFF]),
    ]

    @Test(arguments: cases)
    func encodesToWireBytesAndParsesBack(message: MIDIMessage, bytes: [UInt8]) {
        #expect(message.bytes == bytes)
        var parser = MIDIParser()
        #expect(parser.parse(bytes) == [message])
        #expect(parser.skippedBytes == 0 && parser.truncatedMessages == 0)
    }

    @Test func encodeIntoAppends() {
        var out: [UInt8] = [0xAA]
        MIDIMessage.programChange(channel: 0, program: 1).encode(into: &out)
        MIDIMessage.clock.encode(into: &out)
        #expect(out == [0xAA, 0xC0, 1, 0xF8])
    }

    @Test func outOfRangeFieldsAreMaskedToAWellFormedStream() {
        #expect(MIDIMessage.noteOn(channel: 17, note: 200, velocity: 255).bytes == [0x91, 0x48, 0x7F])
        #expect(MIDIMessage.pitchBend(channel: 0, value: 0xFFFF).bytes == [0xE0, 0x7F, 0x7F])
        #expect(MIDIMessage.sysEx([0xF7, 0x01]).bytes == [0xF0, 0x77, 0x01, 0xF7])
    }
}
