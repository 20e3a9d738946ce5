/// Why a Standard MIDI File could not be read, and where.
///
/// `description` is one line naming the byte offset, the problem and the fix, e.g.
/// `byte 1234: track chunk length 4294967295 exceeds the 56 bytes left in the file (fix: the file is truncated or corrupt; re-export it)`.
///
/// - Thread: any (a plain value).
public struct SMFError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset from the start of the file of the byte where the problem was found.
    public var offset: Int
    public var reason: Reason

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    public enum Reason: Equatable, Sendable {
        /// The file does not begin with an `MThd` chunk.
        case missingHeader
        /// The `MThd` chunk is shorter than its 6 required bytes.
        case headerTooShort(length: UInt32)
        /// Format other than 0, 1 or 2.
        case unsupportedFormat(UInt16)
        /// Division of 0 ticks per quarter, an SMPTE rate other than 24/25/29/30, or 0 ticks per frame.
        case invalidDivision(UInt16)
        /// A chunk's length field claims more bytes than the file has left.
        case chunkExceedsFile(type: String, length: UInt32, remaining: Int)
        /// The header declares more `MTrk` chunks than the file contains.
        case missingTracks(declared: Int, found: Int)
        /// A track chunk ends in the middle of an event.
        case trackEndsMidEvent
        /// A SysEx or meta event's length field claims more bytes than its track chunk has left.
        case eventExceedsTrack(length: UInt32, remaining: Int)
        /// A variable-length quantity longer than the 4 bytes SMF allows.
        case quantityTooLong
        /// A data byte where a status byte is needed and no running status is in effect
        /// (at the start of a track, or after a meta or SysEx event, which cancel it).
        case dataByteWithoutStatus(UInt8)
        /// A status byte where a data byte of a channel message is needed.
        case statusByteInsideMessage(UInt8)
        /// A status byte that cannot appear in a track (system common or realtime F1…FE).
        case invalidStatus(UInt8)
    }

    public var description: String {
        "byte \(offset): \(reason.problem) (fix: \(reason.fix))"
    }
}

extension SMFError.Reason {
    var problem: String {
        switch self {
        case .missingHeader:
            return "the file does not start with an MThd header chunk"
        case .headerTooShort(let length):
            return "MThd header length \(length) is shorter than 6"
        case .unsupportedFormat(let format):
            return "SMF format \(format) is not 0, 1 or 2"
        case .invalidDivision(let raw):
            return "time division 0x\(hex(raw)) is invalid"
        case .chunkExceedsFile(let type, let length, let remaining):
            return "\(type) chunk length \(length) exceeds the \(remaining) bytes left in the file"
        case .missingTracks(let declared, let found):
            return "the header declares \(declared) tracks but the file holds \(found)"
        case .trackEndsMidEvent:
            return "the track chunk ends in the middle of an event"
        case .eventExceedsTrack(let length, let remaining):
            return "event length \(length) exceeds the \(remaining) bytes left in the track"
        case .quantityTooLong:
            return "variable-length quantity is longer than 4 bytes"
        case .dataByteWithoutStatus(let byte):
            return "data byte 0x\(hex(byte)) has no status byte and no running status"
        case .statusByteInsideMessage(let byte):
            return "status byte 0x\(hex(byte)) inside a channel message where a data byte belongs"
        case .invalidStatus(let byte):
            return "status byte 0x\(hex(byte)) is not allowed in a track"
        }
    }

    var fix: String {
        switch self {
        case .missingHeader:
            return "this is not a Standard MIDI File; give a .mid file"
        case .unsupportedFormat, .invalidDivision, .headerTooShort:
            return "the header is corrupt; re-export the file from its editor"
        case .chunkExceedsFile, .missingTracks, .trackEndsMidEvent:
            return "the file is truncated or corrupt; re-export or download it again"
        case .eventExceedsTrack, .quantityTooLong, .dataByteWithoutStatus, .statusByteInsideMessage, .invalidStatus:
            return "the track data is corrupt; re-export the file from its editor"
        }
    }

    private func hex<T: BinaryInteger>(_ value: T) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        let width = MemoryLayout<T>.size * 2
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
