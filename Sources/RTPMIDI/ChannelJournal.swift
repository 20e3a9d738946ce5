/// One channel's journal (RFC 6295 §5.2): chapters P, C, W and N. Chapters M, E, T and
/// A of a received journal are skipped.
///
/// - Thread: any (a value).
public struct ChannelJournal: Hashable, Sendable {
    /// 0…15.
    public var channel: UInt8
    public var program: ChapterP?
    public var controllers: ChapterC?
    public var pitchWheel: ChapterW?
    public var notes: ChapterN?

    public init(channel: UInt8, program: ChapterP? = nil, controllers: ChapterC? = nil, pitchWheel: ChapterW? = nil, notes: ChapterN? = nil) {
        self.channel = channel
        self.program = program
        self.controllers = controllers
        self.pitchWheel = pitchWheel
        self.notes = notes
    }

    var anyInPreviousPacket: Bool {
        program?.inPreviousPacket == true || controllers?.anyInPreviousPacket == true
            || pitchWheel?.inPreviousPacket == true || notes?.anyInPreviousPacket == true
    }

    // The table of contents: which chapters follow, in this order.
    private static let chapterP: UInt8 = 0x80, chapterC: UInt8 = 0x40, chapterM: UInt8 = 0x20, chapterW: UInt8 = 0x10
    private static let chapterN: UInt8 = 0x08, chaptersETA: UInt8 = 0x07

    /// S CHAN H LENGTH (10 bits: the journal's bytes, these 3 included) | P C M W N E T A
    /// (the table of contents), then the chapters.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let flags: UInt32 = (anyInPreviousPacket ? 0 : 0x8000) | UInt32(channel & 0x0F) << 11
        appendLengthPrefixed(header: flags, headerLength: 2, to: &out) { body in
            let contentsAt = body.count
            var contents: UInt8 = 0
            body.append(0)
            if let program { contents |= Self.chapterP; program.encode(into: &body) }
            if let controllers, !controllers.logs.isEmpty { contents |= Self.chapterC; controllers.encode(into: &body) }
            if let pitchWheel { contents |= Self.chapterW; pitchWheel.encode(into: &body) }
            if let notes { contents |= Self.chapterN; notes.encode(into: &body) }
            body[contentsAt] = contents
        }
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let header = try reader.uint16()
        channel = UInt8(header >> 11 & 0x0F)
        var body = try journalBody(&reader, length: Int(header & 0x03FF), headerLength: 2)
        let contents = try body.byte()
        program = contents & Self.chapterP != 0 ? try ChapterP(decoding: &body) : nil
        controllers = contents & Self.chapterC != 0 ? try ChapterC(decoding: &body) : nil
        if contents & Self.chapterM != 0 {
            // S P E U W Z LENGTH (10 bits, the chapter's header included).
            let chapterHeader = try body.uint16()
            _ = try journalBody(&body, length: Int(chapterHeader & 0x03FF), headerLength: 2)
        }
        pitchWheel = contents & Self.chapterW != 0 ? try ChapterW(decoding: &body) : nil
        notes = contents & Self.chapterN != 0 ? try ChapterN(decoding: &body) : nil
        guard contents & Self.chaptersETA != 0 || body.isAtEnd else { throw .badJournalLength }
    }
}
