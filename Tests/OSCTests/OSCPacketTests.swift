import Testing
import OSC

/// OSC 1.0 packets read and written: the specification's own examples byte for byte, what
/// liblo's `oscsend` writes, bundles with time tags, and bytes that are no packet.
@Suite struct OSCPacketTests {
    static func bytes(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    /// OSC 1.0's example: "/oscillator/4/frequency" with the float 440.0.
    static let frequency = bytes("""
        2f 6f 73 63 69 6c 6c 61 74 6f 72 2f 34 2f 66 72 65 71 75 65 6e 63 79 00 2c 66 00 00 43 dc 00 00
        """)

    @Test func theSpecificationsExamplesReadAndWriteByteForByte() throws {
        let message = OSCPacket.message(OSCMessage("/oscillator/4/frequency", [.float(440)]))
        #expect(try OSCPacket(decoding: Self.frequency) == message)
        #expect(message.encoded() == Self.frequency)
        // "/foo" with 1000, -1, "hello", 1.234 and 5.678.
        let foo = Self.bytes("""
            2f 66 6f 6f 00 00 00 00 2c 69 69 73 66 66 00 00 00 00 03 e8 ff ff ff ff 68 65 6c 6c 6f 00 00 00 3f 9d f3 b6 40 b5 b2 2d
            """)
        let expected = OSCPacket.message(OSCMessage("/foo", [.int(1000), .int(-1), .string("hello"), .float(1.234), .float(5.678)]))
        #expect(try OSCPacket(decoding: foo) == expected)
        #expect(expected.encoded() == foo)
    }

    @Test func everyTypeTheHubTakesGoesThereAndBack() throws {
        let message = OSCPacket.message(OSCMessage("/midi/keys", [
            .double(-0.25), .bool(true), .bool(false), .string(""), .string("four"), .midi(OSCMIDI(status: 0x90, data1: 60, data2: 100)),
        ]))
        let bytes = message.encoded()
        #expect(bytes.count % 4 == 0)
        #expect(try OSCPacket(decoding: bytes) == message)
    }

    @Test func aBundleKeepsItsTimeTagAndItsMessagesInOrderNestedOnesWithTheirOwn() throws {
        let later = OSCTimeTag(unixNanoseconds: 1_700_000_000_500_000_000)
        #expect(later.fraction == 1 << 31, "half a second is half the fraction's range")
        #expect(later.unixNanoseconds == 1_700_000_000_500_000_000)
        let inner = OSCBundle(timeTag: later, [.message(OSCMessage("/b", [.int(2)]))])
        let packet = OSCPacket.bundle(OSCBundle([.message(OSCMessage("/a", [.int(1)])), .bundle(inner), .message(OSCMessage("/c"))]))
        let read = try OSCPacket(decoding: packet.encoded())
        #expect(read == packet)
        #expect(read.messages.map(\.message.address) == ["/a", "/b", "/c"])
        #expect(read.messages.map(\.timeTag) == [.immediately, later, .immediately])
    }

    @Test(arguments: [
        ("2f 61 00", OSCError.misaligned(3)),
        ("2f 61 00 00 2c 69 00 00", .truncated("an argument of /a")),
        ("2f 61 00 00 2c 62 00 00 00 00 00 00", .unsupportedType("b", address: "/a")),
        ("2f 61 00 00 69 00 00 00", .noTypeTags(address: "/a")),
        ("61 62 63 00", .notAPacket),
        ("2f 61 62 63", .truncated("the address")),
        ("2f ff 00 00 2c 00 00 00", .badString),
        ("23 62 75 6e 64 6c 65 00 00 00 00 00 00 00 00 01 7f ff ff fc", .badElementSize(0x7fff_fffc)),
        ("23 62 75 6e 64 6c 65 00 00 00 00 00 00 00 00 01 ff ff ff fc", .badElementSize(-4)),
    ])
    func bytesThatAreNoPacketAreRefusedWithTheReason(hex: String, error: OSCError) {
        #expect(throws: error) { try OSCPacket(decoding: Self.bytes(hex)) }
        #expect(!error.description.isEmpty && error.description.contains("(fix: "))
    }

    @Test func bundlesNestedPastTheLimitAndPacketsPastTheSizeAreRefused() {
        var packet = OSCPacket.message(OSCMessage("/deep"))
        for _ in 0...OSCPacket.maximumDepth { packet = .bundle(OSCBundle([packet])) }
        #expect(throws: OSCError.tooDeep(limit: OSCPacket.maximumDepth)) { try OSCPacket(decoding: packet.encoded()) }
        let huge = OSCPacket.message(OSCMessage("/big", [.string(String(repeating: "x", count: OSCPacket.maximumSize))]))
        #expect(throws: OSCError.tooLarge(huge.encoded().count, limit: OSCPacket.maximumSize)) { try OSCPacket(decoding: huge.encoded()) }
    }
}
