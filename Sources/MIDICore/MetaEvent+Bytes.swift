/// The byte layout of meta events (`FF type length data`), both directions.
extension MetaEvent {
    /// The type byte of End of Track, which the model keeps as `MIDITrack.endTick`.
    static let endOfTrackType: UInt8 = 0x2F

    /// Decodes a meta event's data. A known type whose data has the wrong length is
    /// kept verbatim as `.unknown`, so nothing is lost and the file round-trips.
    /// Text is decoded as UTF-8 when valid, else as ISO-8859-1.
    init(type: UInt8, data: [UInt8]) {
        switch (type, data.count) {
        case (0x00, 2): self = .sequenceNumber(UInt16(data[0]) << 8 | UInt16(data[1]))
        case (0x01, _): self = .text(Self.decodeText(data))
        case (0x02, _): self = .copyright(Self.decodeText(data))
        case (0x03, _): self = .trackName(Self.decodeText(data))
        case (0x04, _): self = .instrumentName(Self.decodeText(data))
        case (0x05, _): self = .lyric(Self.decodeText(data))
        case (0x06, _): self = .marker(Self.decodeText(data))
        case (0x07, _): self = .cuePoint(Self.decodeText(data))
        case (0x08, _): self = .programName(Self.decodeText(data))
        case (0x09, _): self = .deviceName(Self.decodeText(data))
        case (0x20, 1): self = .channelPrefix(data[0])
        case (0x21, 1): self = .port(data[0])
        case (0x51, 3): self = .tempo(microsecondsPerQuarter: UInt32(data[0]) << 16 | UInt32(data[1]) << 8 | UInt32(data[2]))
        case (0x54, 5):
            self = .smpteOffset(hours: data[0], minutes: data[1], seconds: data[2], frames: data[3], subframes: data[4])
        case (0x58, 4):
            self = .timeSignature(numerator: data[0], denominatorPower: data[1], clocksPerClick: data[2], thirtySecondsPerQuarter: data[3])
        case (0x59, 2): self = .keySignature(sharps: Int8(bitPattern: data[0]), minor: data[1] != 0)
        case (0x7F, _): self = .sequencerSpecific(data)
        default: self = .unknown(type: type, data: data)
        }
    }

    /// The type byte and data the writer stores; text is written as UTF-8.
    var typeAndData: (type: UInt8, data: [UInt8]) {
        switch self {
        case .sequenceNumber(let number): return (0x00, [UInt8(number >> 8), UInt8(number & 0xFF)])
        case .text(let text): return (0x01, Array(text.utf8))
        case .copyright(let text): return (0x02, Array(text.utf8))
        case .trackName(let text): return (0x03, Array(text.utf8))
        case .instrumentName(let text): return (0x04, Array(text.utf8))
        case .lyric(let text): return (0x05, Array(text.utf8))
        case .marker(let text): return (0x06, Array(text.utf8))
        case .cuePoint(let text): return (0x07, Array(text.utf8))
        case .programName(let text): return (0x08, Array(text.utf8))
        case .deviceName(let text): return (0x09, Array(text.utf8))
        case .channelPrefix(let channel): return (0x20, [channel])
        case .port(let port): return (0x21, [port])
        case .tempo(let micros):
            let clamped = min(micros, 0xFF_FFFF)
            return (0x51, [UInt8(clamped >> 16), UInt8(clamped >> 8 & 0xFF), UInt8(clamped & 0xFF)])
        case .smpteOffset(let hours, let minutes, let seconds, let frames, let subframes):
            return (0x54, [hours, minutes, seconds, frames, subframes])
        case .timeSignature(let numerator, let power, let clocks, let thirtySeconds):
            return (0x58, [numerator, power, clocks, thirtySeconds])
        case .keySignature(let sharps, let minor): return (0x59, [UInt8(bitPattern: sharps), minor ? 1 : 0])
        case .sequencerSpecific(let data): return (0x7F, data)
        case .unknown(let type, let data): return (type, data)
        }
    }

    private static func decodeText(_ data: [UInt8]) -> String {
        if let text = String(validating: data, as: UTF8.self) { return text }
        return String(String.UnicodeScalarView(data.map { Unicode.Scalar($0) }))
    }
}
