/// One message of Apple's session protocol (the "AppleMIDI" exchange RTP-MIDI peers speak
/// on both ports of a session, beside the RTP packets): invitation, acceptance, refusal,
/// end, the three-way clock sync and the receiver's feedback. Every one starts with
/// FF FF and two ASCII letters; an RTP packet never does (its first byte is 0x80 or 0x81).
///
/// - Thread: any (a value).
public enum AppleMIDICommand: Hashable, Sendable {
    /// IN: asks the peer to join a session (first on the control port, then on the data port).
    case invitation(Exchange)
    /// OK: the invitation is accepted.
    case accepted(Exchange)
    /// NO: the invitation is refused.
    case refused(Exchange)
    /// BY: the session ends.
    case end(Exchange)
    /// CK: one step of the clock sync (`count` 0, 1, 2), the timestamps in 100 µs units.
    case clockSync(ClockSync)
    /// RS: the receiver has every packet up to `sequenceNumber`; the sender's journal may
    /// forget what came before it.
    case receiverFeedback(ssrc: UInt32, sequenceNumber: UInt16)

    /// The fields IN, OK, NO and BY share.
    public struct Exchange: Hashable, Sendable {
        /// Always 2 in the protocol's current version.
        public var protocolVersion: UInt32
        /// Chosen by the initiator; the answer carries it back.
        public var initiatorToken: UInt32
        /// The sender's synchronization source: who this peer is in the session.
        public var ssrc: UInt32
        /// The sender's session name (IN and OK), shown by the peer; BY has none.
        public var name: String?

        /// - Thread: any.
        public init(protocolVersion: UInt32 = 2, initiatorToken: UInt32, ssrc: UInt32, name: String? = nil) {
            (self.protocolVersion, self.initiatorToken, self.ssrc, self.name) = (protocolVersion, initiatorToken, ssrc, name)
        }
    }

    /// CK's fields: the initiator sends count 0 with `timestamps[0]`, the responder answers
    /// count 1 adding `timestamps[1]`, the initiator ends with count 2 adding `timestamps[2]`.
    public struct ClockSync: Hashable, Sendable {
        public var ssrc: UInt32
        public var count: UInt8
        public var timestamps: (UInt64, UInt64, UInt64)

        /// - Thread: any.
        public init(ssrc: UInt32, count: UInt8, timestamps: (UInt64, UInt64, UInt64)) {
            (self.ssrc, self.count, self.timestamps) = (ssrc, count, timestamps)
        }

        public static func == (a: ClockSync, b: ClockSync) -> Bool {
            a.ssrc == b.ssrc && a.count == b.count && a.timestamps == b.timestamps
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ssrc)
            hasher.combine(count)
            hasher.combine(timestamps.0)
            hasher.combine(timestamps.1)
            hasher.combine(timestamps.2)
        }
    }

    /// Whether a datagram is a session command (starts FF FF) rather than an RTP packet.
    /// - Thread: any.
    public static func isCommand(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xFF, 0xFF])
    }

    /// The longest session name kept (a longer one is cut at a character boundary).
    public static let maxNameBytes = 255
}

extension AppleMIDICommand {
    /// The command's bytes, as sent in one datagram.
    /// - Thread: any.
    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xFF]
        switch self {
        case .invitation(let exchange): bytes += Array("IN".utf8) + exchange.fields
        case .accepted(let exchange): bytes += Array("OK".utf8) + exchange.fields
        case .refused(let exchange): bytes += Array("NO".utf8) + exchange.fields
        case .end(let exchange): bytes += Array("BY".utf8) + exchange.fields
        case .clockSync(let sync):
            bytes += Array("CK".utf8)
            bytes.appendBigEndian(sync.ssrc)
            bytes += [sync.count, 0, 0, 0]
            bytes.appendBigEndian(sync.timestamps.0)
            bytes.appendBigEndian(sync.timestamps.1)
            bytes.appendBigEndian(sync.timestamps.2)
        case .receiverFeedback(let ssrc, let sequenceNumber):
            bytes += Array("RS".utf8)
            bytes.appendBigEndian(ssrc)
            bytes.appendBigEndian(sequenceNumber)
            bytes += [0, 0]
        }
        return bytes
    }

    /// Reads one session command.
    /// - Throws: `AppleMIDICommandError` naming what is wrong (too short, an unknown
    ///   command, a name that is not UTF-8).
    /// - Thread: any.
    public init(decoding datagram: some Collection<UInt8>) throws(AppleMIDICommandError) {
        let bytes = Array(datagram)
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xFF else { throw .notACommand }
        let letters = String(decoding: bytes[2..<4], as: UTF8.self)
        var reader = ByteReader(bytes, from: 4, failure: .truncatedHeader)
        self = try Self.fields(of: letters, in: &reader)
    }

    /// The command named by `letters`, its fields read from `reader`.
    private static func fields(of letters: String, in reader: inout ByteReader) throws(AppleMIDICommandError) -> AppleMIDICommand {
        do {
            switch letters {
            case "IN", "OK", "NO", "BY":
                let (version, token, ssrc) = (try reader.uint32(), try reader.uint32(), try reader.uint32())
                let exchange = Exchange(
                    protocolVersion: version, initiatorToken: token, ssrc: ssrc, name: try name(in: reader.rest(), command: letters))
                switch letters {
                case "IN": return .invitation(exchange)
                case "OK": return .accepted(exchange)
                case "NO": return .refused(exchange)
                default: return .end(exchange)
                }
            case "CK":
                let ssrc = try reader.uint32(), count = try reader.byte()
                try reader.skip(3)
                let timestamps = (try reader.uint64(), try reader.uint64(), try reader.uint64())
                guard count <= 2 else { throw AppleMIDICommandError.badClockSyncCount(count) }
                return .clockSync(ClockSync(ssrc: ssrc, count: count, timestamps: timestamps))
            case "RS":
                return .receiverFeedback(ssrc: try reader.uint32(), sequenceNumber: try reader.uint16())
            default:
                throw AppleMIDICommandError.unknown(letters)
            }
        } catch let error as AppleMIDICommandError {
            throw error
        } catch {
            throw .truncated(letters)  // a read past the end
        }
    }

    /// The NUL-terminated name after an exchange's fields: `nil` when absent or empty.
    private static func name(in rest: ArraySlice<UInt8>, command: String) throws(AppleMIDICommandError) -> String? {
        let text = rest.prefix { $0 != 0 }.prefix(maxNameBytes)
        guard !text.isEmpty else { return nil }
        guard let name = String(validating: text, as: UTF8.self) else { throw .nameNotUTF8(command) }
        return name
    }
}

extension AppleMIDICommand.Exchange {
    /// Version, token, SSRC and the name with its NUL.
    fileprivate var fields: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(protocolVersion)
        bytes.appendBigEndian(initiatorToken)
        bytes.appendBigEndian(ssrc)
        if let name {
            bytes += Array(name.utf8.prefix(AppleMIDICommand.maxNameBytes)) + [0]
        }
        return bytes
    }
}

/// Why a datagram is not a session command midihub can read.
/// - Thread: any (a value).
public enum AppleMIDICommandError: Error, Equatable, Sendable, CustomStringConvertible {
    case notACommand
    case truncated(String)
    case unknown(String)
    case badClockSyncCount(UInt8)
    case nameNotUTF8(String)

    public var description: String {
        switch self {
        case .notACommand: "not a session command (no FF FF preamble)"
        case .truncated(let command): "a session command \(command) cut short"
        case .unknown(let command): "an unknown session command '\(command)'"
        case .badClockSyncCount(let count): "a clock sync with count \(count) (0, 1 or 2 expected)"
        case .nameNotUTF8(let command): "a session command \(command) whose name is not UTF-8"
        }
    }
}
