/// Chapter N of a channel journal (RFC 6295 Appendix A.6): the notes whose latest
/// command in the checkpoint history is a NoteOn (note logs) or a NoteOff (the
/// OFFBITS). A NoteOn with velocity 0 counts as a NoteOff.
///
/// - Thread: any (a value).
public struct ChapterN: Hashable, Sendable {
    /// At most 128 are encoded.
    public var noteLogs: [NoteLog]
    /// Notes that ended in the checkpoint history and have not started again.
    /// Left out of the encoding when there are 128 note logs.
    public var offNotes: NoteSet
    /// A NoteOff in `offNotes` was in the packet just before the journal's (the B bit is 0).
    public var offNotesInPreviousPacket: Bool

    public init(noteLogs: [NoteLog] = [], offNotes: NoteSet = NoteSet(), offNotesInPreviousPacket: Bool = false) {
        self.noteLogs = noteLogs
        self.offNotes = offNotes
        self.offNotesInPreviousPacket = offNotesInPreviousPacket
    }

    /// A note sounding at the sender, started in the checkpoint history.
    public struct NoteLog: Hashable, Sendable {
        public var note: UInt8
        public var velocity: UInt8
        /// The NoteOn is recent enough that a receiver should play it (the Y bit).
        public var playable: Bool
        /// The NoteOn was in the packet just before the journal's (the S bit is 0).
        public var inPreviousPacket: Bool

        public init(note: UInt8, velocity: UInt8, playable: Bool = true, inPreviousPacket: Bool = false) {
            self.note = note
            self.velocity = velocity
            self.playable = playable
            self.inPreviousPacket = inPreviousPacket
        }
    }

    var anyInPreviousPacket: Bool { offNotesInPreviousPacket || noteLogs.contains(where: \.inPreviousPacket) }

    /// B LEN | LOW HIGH, the note logs, then the OFFBITS octets LOW…HIGH (the most
    /// significant bit of octet k is note 8k). LEN=127 with LOW=15, HIGH=0 codes 128 logs.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let logs = noteLogs.prefix(128)
        var first: Int?, last: Int?  // the OFFBITS octets with a note in them
        if logs.count < 128 {
            for index in 0..<16 where offNotes.octet(index) != 0 { (first, last) = (first ?? index, index) }
        }
        let (low, high): (Int, Int) = switch (logs.count, first, last) {
        case (128, _, _): (15, 0)
        case (_, let first?, let last?): (first, last)
        case (127, _, _): (15, 1)
        default: (15, 0)
        }
        out.append((offNotesInPreviousPacket ? 0 : 0x80) | UInt8(min(logs.count, 127)))
        out.append(UInt8(low << 4 | high))
        for log in logs {
            out.append((log.inPreviousPacket ? 0 : 0x80) | log.note & 0x7F)
            out.append((log.playable ? 0x80 : 0) | log.velocity & 0x7F)
        }
        guard low <= high else { return }
        for byteIndex in low...high { out.append(offNotes.octet(byteIndex)) }
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let first = try reader.byte()
        let second = try reader.byte()
        let length = Int(first & 0x7F)
        let low = Int(second >> 4), high = Int(second & 0x0F)
        let logCount = length == 127 && low == 15 && high == 0 ? 128 : length
        let offByteCount = low <= high ? high - low + 1 : 0
        guard logCount * 2 + offByteCount <= reader.remaining else { throw .absurdCount }
        offNotesInPreviousPacket = first & 0x80 == 0
        var logs: [NoteLog] = []
        logs.reserveCapacity(logCount)
        for _ in 0..<logCount {
            let note = try reader.byte()
            let velocity = try reader.byte()
            logs.append(NoteLog(note: note & 0x7F, velocity: velocity & 0x7F, playable: velocity & 0x80 != 0,
                                inPreviousPacket: note & 0x80 == 0))
        }
        noteLogs = logs
        offNotes = NoteSet()
        for byteIndex in 0..<offByteCount {
            let bits = try reader.byte()
            for bit in 0..<8 where bits & (0x80 >> UInt8(bit)) != 0 {
                offNotes.insert(UInt8((low + byteIndex) * 8 + bit))
            }
        }
    }
}
