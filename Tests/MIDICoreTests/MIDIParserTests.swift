import TestSupport
import Testing
@testable import MIDICore

@Suite struct MIDIParserTests {
    private func parse(_ bytes: [UInt8]) -> (messages: [MIDIMessage], parser: MIDIParser) {
        var parser = MIDIParser()
        let messages = parser.parse(bytes)
        return (messages, parser)
    }

    @Test func runningStatusReusesTheLastChannelStatus() {
        let (messages, parser) = parse([0x90, 60, 100, 62, 101, 0xC3, 5, 6])
        #expect(messages == [
            .noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 62, velocity: 101),
            .programChange(channel: 3, program: 5), .programChange(channel: 3, program: 6),
        ])
        #expect(parser.skippedBytes == 0 && parser.truncatedMessages == 0)
    }

    @Test func realtimeBytesInsideAMessagePassAtOnceAndKeepTheMessage() {
        let (messages, parser) = parse([0x90, 0xF8, 60, 0xFE, 100, 0xFA, 61, 0xFF, 0])
        #expect(messages == [
            .clock, .activeSensing, .noteOn(channel: 0, note: 60, velocity: 100),
            .start, .reset, .noteOn(channel: 0, note: 61, velocity: 0),
        ])
        #expect(parser.skippedBytes == 0 && parser.truncatedMessages == 0)
    }

    @Test func realtimeBytesInsideSysExPassAndAreNotPartOfThePayload() {
        let (messages, _) = parse([0xF0, 0x7E, 0xF8, 0x01, 0xFC, 0xF7])
        #expect(messages == [.clock, .stop, .sysEx([0x7E, 0x01])])
    }

    @Test func sysExSplitAcrossFeedsIsEmittedWhenF7Arrives() {
        var parser = MIDIParser()
        #expect(parser.parse([0xF0, 0x43]).isEmpty)
        #expect(parser.parse([0x10, 0xFB, 0x4C]) == [.continue])
        #expect(parser.parse([0x00, 0xF7, 0x90, 1, 2]) == [.sysEx([0x43, 0x10, 0x4C, 0x00]), .noteOn(channel: 0, note: 1, velocity: 2)])
    }

    @Test func strayDataBytesAreSkippedAndCounted() {
        let (messages, parser) = parse([60, 61, 0x91, 60, 100])
        #expect(messages == [.noteOn(channel: 1, note: 60, velocity: 100)])
        #expect(parser.skippedBytes == 2)
        #expect(parser.truncatedMessages == 0)
    }

    @Test func aStatusByteInterruptingAMessageTruncatesIt() {
        // 90 3C is cut by 80; C0 (no data) is cut by B0.
        let (messages, parser) = parse([0x90, 0x3C, 0x80, 0x3C, 0x00, 0xC0, 0xB0, 7, 100])
        #expect(messages == [.noteOff(channel: 0, note: 60, velocity: 0), .controlChange(channel: 0, controller: 7, value: 100)])
        #expect(parser.truncatedMessages == 2)
        #expect(parser.skippedBytes == 0)
    }

    @Test func undefinedStatusBytesAreSkippedAndCancelRunningStatus() {
        let (messages, parser) = parse([0x90, 60, 100, 0xF4, 61, 100, 0xF9, 0xF5, 0xFD, 0x90, 62, 1])
        #expect(messages == [.noteOn(channel: 0, note: 60, velocity: 100), .noteOn(channel: 0, note: 62, velocity: 1)])
        #expect(parser.skippedBytes == 6)  // F4, 61, 100, F9, F5, FD
        #expect(parser.truncatedMessages == 0)
    }

    @Test func sysExEndedByAnotherStatusIsTruncatedWhileItsRealtimeBytesPass() {
        let (messages, parser) = parse([0xF0, 0x01, 0xF8, 0x02, 0x90, 60, 100])
        #expect(messages == [.clock, .noteOn(channel: 0, note: 60, velocity: 100)])
        #expect(parser.truncatedMessages == 1)
        #expect(parser.skippedBytes == 0)
    }

    @Test func strayEndOfExclusiveIsSkipped() {
        let (messages, parser) = parse([0xF7, 0xF6])
        #expect(messages == [.tuneRequest])
        #expect(parser.skippedBytes == 1)
    }

    @Test func systemCommonMessagesParseAndClearRunningStatus() {
        let (messages, parser) = parse([0x90, 60, 100, 0xF1, 0x35, 61, 100, 0xF2, 0x01, 0x02, 0xF3, 7, 0xF6])
        #expect(messages == [
            .noteOn(channel: 0, note: 60, velocity: 100), .mtcQuarterFrame(0x35),
            .songPosition(0x01 | 0x02 << 7), .songSelect(7), .tuneRequest,
        ])
        #expect(parser.skippedBytes == 2)  // 61 100 after the system common message
    }

    @Test func sysExLongerThanTheLimitIsDroppedAndCounted() {
        var parser = MIDIParser(maxSysExLength: 2)
        #expect(parser.parse([0xF0, 1, 2, 3, 4, 0xF7, 0xF0, 5, 0xF7]) == [.sysEx([5])])
        #expect(parser.truncatedMessages == 1)
        #expect(parser.skippedBytes == 2)
    }

    @Test func truncatedMessageAtTheEndOfInputIsCompletedByTheNextFeed() {
        var parser = MIDIParser()
        #expect(parser.parse([0xE5, 0x00]).isEmpty)
        #expect(parser.parse([0x40]) == [.pitchBend(channel: 5, value: 8192)])
    }

    @Test(arguments: 0..<50 as Range<UInt64>)
    func byteByByteFeedingEqualsWholeBufferFeeding(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.noisyStream(length: 2000, using: &random)
        var whole = MIDIParser()
        let wholeMessages = whole.parse(bytes)

        var split = MIDIParser()
        var splitMessages: [MIDIMessage] = []
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + Int.random(in: 0...7, using: &random))
            split.feed(bytes[start..<end]) { splitMessages.append($0) }
            start = end
        }
        var single = MIDIParser()
        var singleMessages: [MIDIMessage] = []
        for byte in bytes { single.feed(CollectionOfOne(byte)) { singleMessages.append($0) } }

        #expect(splitMessages == wholeMessages)
        #expect(singleMessages == wholeMessages)
        #expect(split.skippedBytes == whole.skippedBytes && single.skippedBytes == whole.skippedBytes)
        #expect(split.truncatedMessages == whole.truncatedMessages && single.truncatedMessages == whole.truncatedMessages)
    }

    /// Random noise never traps; its counts stay within the input; what it emits
    /// re-encodes to a stream that parses back to the same messages with no losses.
    @Test(arguments: 0..<100 as Range<UInt64>)
    func randomNoiseParsesConsistently(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let bytes = Self.noisyStream(length: 3000, using: &random)
        var parser = MIDIParser()
        let messages = parser.parse(bytes)
        let statusBytes = bytes.filter { $0 >= 0x80 }.count
        #expect(parser.skippedBytes <= bytes.count - messages.count)
        #expect(parser.truncatedMessages <= statusBytes)

        var reparser = MIDIParser()
        let reencoded = messages.flatMap(\.bytes)
        #expect(reparser.parse(reencoded) == messages)
        #expect(reparser.skippedBytes == 0 && reparser.truncatedMessages == 0)
    }

    /// Valid messages, sent with running status where possible and realtime bytes
    /// sprinkled anywhere, come back exactly with nothing skipped.
    @Test(arguments: 0..<50 as Range<UInt64>)
    func validStreamsWithRunningStatusAndRealtimeParseExactly(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var expected: [MIDIMessage] = []
        var bytes: [UInt8] = []
        var runningStatus: UInt8 = 0
        for _ in 0..<500 {
            let message = Int.random(in: 0..<8, using: &random) == 0
                ? .sysEx((0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...127, using: &random) })
                : GeneratedFiles.channelMessage(using: &random)
            var encoded = message.bytes
            if encoded[0] == runningStatus { encoded.removeFirst() }
            runningStatus = message.channel == nil ? 0 : message.bytes[0]
            expected.append(message)
            for byte in encoded {
                if Int.random(in: 0..<6, using: &random) == 0 {
                    bytes.append(0xF8)
                    expected.insert(.clock, at: expected.count - 1)
                }
                bytes.append(byte)
            }
        }
        var parser = MIDIParser()
        #expect(parser.parse(bytes) == expected)
        #expect(parser.skippedBytes == 0 && parser.truncatedMessages == 0)
    }

    /// Random bytes biased toward status bytes, so every state is reached often.
    static func noisyStream(length: Int, using random: inout SeededGenerator) -> [UInt8] {
        (0..<length).map { _ in
            Int.random(in: 0..<4, using: &random) == 0
                ? UInt8.random(in: 0x80...0xFF, using: &random)
                : UInt8.random(in: 0...0x7F, using: &random)
        }
    }
}
