/// What was wrong with bytes that do not decode as an RTP-MIDI packet (RFC 6295): the
/// session counts the packet as malformed and drops it.
///
/// - Thread: any (a value).
public enum RTPMIDIDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Fewer than the 12 bytes of the RTP header and the command section's first byte.
    case truncatedHeader
    /// The RTP version is not 2.
    case badVersion(UInt8)
    /// The RTP header's CSRC list, extension or padding runs past the packet.
    case badRTPFraming
    /// The command section's LEN runs past the packet.
    case commandSectionOverrunsPacket(length: Int, available: Int)
    /// A delta time longer than RFC 6295's four octets, or cut off by the section's end.
    case badDeltaTime
    /// A data byte where a command must start, with no running status to apply.
    case missingStatus
    /// A command cut off by the end of the command section.
    case truncatedCommand
    /// A status byte no MIDI 1.0 command has (F4, F5, F9, FD outside a SysEx).
    case undefinedStatus(UInt8)
    /// A status byte other than a real-time one or a terminator inside a SysEx segment.
    case statusInsideSysEx(UInt8)
    /// A SysEx segment with no terminator (F0, F4 or F7) before the section's end.
    case unterminatedSysEx
    /// The recovery journal, a channel or system journal, or a chapter is cut off.
    case truncatedJournal
    /// A journal's or chapter's LENGTH field disagrees with what it holds.
    case badJournalLength
    /// A count larger than the bytes can hold or the format allows.
    case absurdCount
    /// Two channel journals for one channel.
    case repeatedChannel(UInt8)
    /// Bytes left over after the recovery journal.
    case trailingBytes(Int)

    public var description: String {
        switch self {
        case .truncatedHeader: "packet shorter than the RTP header and the command section header"
        case .badVersion(let version): "RTP version \(version), not 2"
        case .badRTPFraming: "RTP CSRC list, header extension or padding runs past the packet"
        case .commandSectionOverrunsPacket(let length, let available):
            "command section of \(length) bytes in the \(available) bytes left of the packet"
        case .badDeltaTime: "delta time longer than 4 bytes or cut off"
        case .missingStatus: "data byte with no running status to apply"
        case .truncatedCommand: "MIDI command cut off by the end of the command section"
        case .undefinedStatus(let status): "undefined MIDI status byte \(hex(status))"
        case .statusInsideSysEx(let status): "status byte \(hex(status)) inside a SysEx segment"
        case .unterminatedSysEx: "SysEx segment without a terminator"
        case .truncatedJournal: "recovery journal cut off"
        case .badJournalLength: "recovery journal LENGTH field disagrees with its content"
        case .absurdCount: "recovery journal count larger than its bytes or the format allow"
        case .repeatedChannel(let channel): "two channel journals for channel \(channel + 1)"
        case .trailingBytes(let count): "\(count) bytes after the recovery journal"
        }
    }
}

/// `0xF4` for 244: how the errors name a status byte.
private func hex(_ byte: UInt8) -> String {
    let digits = String(byte, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" + digits : digits)
}
