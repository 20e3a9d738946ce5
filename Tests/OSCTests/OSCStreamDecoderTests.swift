@testable import OSC
import Testing

@Suite struct OSCStreamDecoderTests {
    let ping = OSCPacket.message(OSCMessage("/ping", [.int(1)])).encoded()
    /// A message whose bytes hold both of SLIP's special bytes (0xC0 and 0xDB in its int).
    let special = OSCPacket.message(OSCMessage("/x", [.int(Int32(bitPattern: 0xC0DB_C0DB))])).encoded()

    /// Every packet `decoder` has whole.
    func packets(_ decoder: inout OSCStreamDecoder) throws -> [[UInt8]] {
        var packets: [[UInt8]] = []
        while let packet = try decoder.nextPacket() { packets.append(packet) }
        return packets
    }

    /// Feeds `stream` in two pieces, cut at every place, and expects `expected` each time.
    func expectPacketsAtEveryCut(_ stream: [UInt8], _ expected: [[UInt8]], framing: OSCStreamFraming) throws {
        for cut in 1..<stream.count {
            var decoder = OSCStreamDecoder()
            decoder.append(stream[..<cut])
            var got = try packets(&decoder)
            decoder.append(stream[cut...])
            got += try packets(&decoder)
            #expect(got == expected, "cut at \(cut)")
            #expect(decoder.framing == framing)
        }
    }

    @Test func sizePrefixedPacketsComeWholeHoweverTheBytesAreSplit() throws {
        let stream = OSCStreamFraming.sizePrefixed.frame(ping) + OSCStreamFraming.sizePrefixed.frame(special)
        try expectPacketsAtEveryCut(stream, [ping, special], framing: .sizePrefixed)
    }

    @Test func slipPacketsAreUnescapedAndEmptyFramesSkipped() throws {
        let framed = OSCStreamFraming.slip.frame(special)
        #expect(framed.dropFirst().dropLast().contains(0xC0) == false)  // escaped inside
        try expectPacketsAtEveryCut(framed + [0xC0] + OSCStreamFraming.slip.frame(ping), [special, ping], framing: .slip)
    }

    @Test func aFrameThatCannotBeReadEndsTheStream() {
        var sized = OSCStreamDecoder()
        sized.append([0, 0, 0, 6] + [UInt8](repeating: 0, count: 8))
        #expect(throws: OSCError.badFrameSize(6)) { try sized.nextPacket() }
        var huge = OSCStreamDecoder()
        huge.append([0x7F, 0xFF, 0xFF, 0xFC])
        #expect(throws: OSCError.tooLarge(0x7FFF_FFFC, limit: OSCPacket.maximumSize)) { try huge.nextPacket() }
        var slip = OSCStreamDecoder()
        slip.append([0xC0, 0x2F, 0xDB, 0x41, 0xC0])
        #expect(throws: OSCError.badSLIPEscape(0x41)) { try slip.nextPacket() }
        var endless = OSCStreamDecoder()
        endless.append([0xC0] + [UInt8](repeating: 0x2F, count: OSCPacket.maximumSize + 1))
        #expect(throws: OSCError.tooLarge(OSCPacket.maximumSize + 1, limit: OSCPacket.maximumSize)) { try endless.nextPacket() }
    }
}
