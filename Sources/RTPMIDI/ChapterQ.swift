/// Chapter Q of the system journal (RFC 6295 Appendix B.3): the sequencer's state from
/// Start, Stop, Continue, Song Position and Clock.
///
/// - Thread: any (a value).
public struct ChapterQ: Hashable, Sendable {
    /// The N bit: the latest of Start, Stop and Continue was Start or Continue.
    public var running: Bool
    /// The D bit, carried as received (this module's sender sends 0).
    public var downbeat: Bool
    /// The song position in MIDI clocks (19 bits: TOP and CLOCK), when known: Song
    /// Position × 6 plus the clocks since, or the clocks since Start.
    public var clocks: UInt32?
    /// The 24-bit TIMETOOLS field, carried as received (this module's sender sends none).
    public var timeTools: UInt32?
    /// A command it encodes was in the packet just before the journal's (the S bit is 0).
    public var inPreviousPacket: Bool

    /// The largest clock count 19 bits hold.
    public static let maximumClocks: UInt32 = 0x7FFFF

    public init(running: Bool, downbeat: Bool = false, clocks: UInt32? = nil, timeTools: UInt32? = nil, inPreviousPacket: Bool = false) {
        self.running = running
        self.downbeat = downbeat
        self.clocks = clocks
        self.timeTools = timeTools
        self.inPreviousPacket = inPreviousPacket
    }

    /// S N D C T TOP, then CLOCK (16 bits) when C, then TIMETOOLS (24 bits) when T.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let clocks = clocks.map { $0 & Self.maximumClocks }
        var first: UInt8 = inPreviousPacket ? 0 : 0x80
        if running { first |= 0x40 }
        if downbeat { first |= 0x20 }
        if clocks != nil { first |= 0x10 }
        if timeTools != nil { first |= 0x08 }
        out.append(first | UInt8((clocks ?? 0) >> 16))
        if let clocks { out.appendBigEndian(UInt16(truncatingIfNeeded: clocks)) }
        if let timeTools {
            out.append(UInt8(truncatingIfNeeded: timeTools >> 16))
            out.appendBigEndian(UInt16(truncatingIfNeeded: timeTools))
        }
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let first = try reader.byte()
        inPreviousPacket = first & 0x80 == 0
        running = first & 0x40 != 0
        downbeat = first & 0x20 != 0
        clocks = first & 0x10 != 0 ? UInt32(first & 0x07) << 16 | UInt32(try reader.uint16()) : nil
        timeTools = first & 0x08 != 0 ? UInt32(try reader.byte()) << 16 | UInt32(try reader.uint16()) : nil
    }
}
