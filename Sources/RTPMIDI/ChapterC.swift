/// Chapter C of a channel journal (RFC 6295 Appendix A.3): the latest value of each
/// controller changed in the checkpoint history.
///
/// - Thread: any (a value).
public struct ChapterC: Hashable, Sendable {
    /// 1…128 logs are encoded; a chapter with none is left out.
    public var logs: [ControllerLog]

    public init(logs: [ControllerLog]) {
        self.logs = logs
    }

    public struct ControllerLog: Hashable, Sendable {
        public var controller: UInt8
        /// The controller's value, or with `alternate` the toggle or count tool's field
        /// (A.3.2), which this module does not interpret.
        public var value: UInt8
        /// The A bit: the toggle or count tool rather than the value tool.
        public var alternate: Bool
        /// The change was in the packet just before the journal's (the S bit is 0).
        public var inPreviousPacket: Bool

        public init(controller: UInt8, value: UInt8, alternate: Bool = false, inPreviousPacket: Bool = false) {
            self.controller = controller
            self.value = value
            self.alternate = alternate
            self.inPreviousPacket = inPreviousPacket
        }
    }

    var anyInPreviousPacket: Bool { logs.contains(where: \.inPreviousPacket) }

    /// S LEN (logs − 1), then per log S NUMBER | A VALUE.
    ///
    /// - Thread: any.
    func encode(into out: inout [UInt8]) {
        let logs = logs.prefix(128)
        out.append((anyInPreviousPacket ? 0 : 0x80) | UInt8(logs.count - 1))
        for log in logs {
            out.append((log.inPreviousPacket ? 0 : 0x80) | log.controller & 0x7F)
            out.append((log.alternate ? 0x80 : 0) | log.value & 0x7F)
        }
    }

    /// - Thread: any.
    init(decoding reader: inout ByteReader) throws(RTPMIDIDecodingError) {
        let count = Int(try reader.byte() & 0x7F) + 1
        guard count * 2 <= reader.remaining else { throw .absurdCount }
        var logs: [ControllerLog] = []
        logs.reserveCapacity(count)
        for _ in 0..<count {
            let number = try reader.byte()
            let value = try reader.byte()
            logs.append(ControllerLog(controller: number & 0x7F, value: value & 0x7F, alternate: value & 0x80 != 0,
                                      inPreviousPacket: number & 0x80 == 0))
        }
        self.logs = logs
    }
}
