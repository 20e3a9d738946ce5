/// The system journal (RFC 6295 §5.3): chapter Q, the sequencer's state. Chapters D,
/// V, F and X of a received journal are skipped; when chapter D holds logs of undefined
/// commands (J, K, Y, Z), chapter Q cannot be found and reads as absent.
///
/// - Thread: any (a value).
public struct SystemJournal: Hashable, Sendable {
    public var sequencer: ChapterQ?

    public init(sequencer: ChapterQ? = nil) {
        self.sequencer = sequencer
    }

    var anyInPreviousPacket: Bool { sequencer?.inPreviousPacket == true }

    // The header's chapter flags: S D V Q F X, then the 10-bit LENGTH.
    private static let chapterD: UInt32 = 0x4000, chapterV: UInt32 = 0x2000, chapterQ: UInt32 = 0x1000

    /// S D V Q F X LENGTH (10 bits, the header's 2 bytes included), then the chapters.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let flags = (anyInPreviousPacket ? 0 : 0x8000) | (sequencer == nil ? 0 : Self.chapterQ)
        appendLengthPrefixed(header: flags, headerLength: 2, to: &out) { sequencer?.encode(into: &$0) }
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let header = UInt32(try reader.uint16())
        var body = try journalBody(&reader, length: Int(header & 0x03FF), headerLength: 2)
        sequencer = nil
        if header & Self.chapterD != 0 {
            // S B G H J K Y Z: B, G and H are one byte each; J, K, Y and Z logs this
            // module does not read, and chapter Q lies beyond them.
            let contents = try body.byte()
            guard contents & 0x0F == 0 else { return }
            try body.skip((contents >> 4 & 0x07).nonzeroBitCount)
        }
        if header & Self.chapterV != 0 { try body.skip(1) }
        if header & Self.chapterQ != 0 { sequencer = try ChapterQ(decoding: &body) }
    }
}
