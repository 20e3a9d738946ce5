extension MIDIMessage {
    /// The message as MIDI 1.0 wire bytes: full status byte (no running status);
    /// `sysEx` is framed with F0 … F7.
    ///
    /// Fields are masked to their width (channel 4 bits, data 7 bits, 14-bit values
    /// 14 bits), so the output is always a well-formed byte stream.
    ///
    /// - Thread: any.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Appends the message's wire bytes (see `bytes`) to `out`: byte by byte, so a buffer
    /// with room allocates nothing.
    ///
    /// - Thread: any.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .noteOff(let c, let note, let velocity):
            Self.append(0x80 | c & 0x0F, note & 0x7F, velocity & 0x7F, to: &out)
        case .noteOn(let c, let note, let velocity):
            Self.append(0x90 | c & 0x0F, note & 0x7F, velocity & 0x7F, to: &out)
        case .polyPressure(let c, let note, let pressure):
            Self.append(0xA0 | c & 0x0F, note & 0x7F, pressure & 0x7F, to: &out)
        case .controlChange(let c, let controller, let value):
            Self.append(0xB0 | c & 0x0F, controller & 0x7F, value & 0x7F, to: &out)
        case .programChange(let c, let program):
            Self.append(0xC0 | c & 0x0F, program & 0x7F, to: &out)
        case .channelPressure(let c, let pressure):
            Self.append(0xD0 | c & 0x0F, pressure & 0x7F, to: &out)
        case .pitchBend(let c, let value):
            out.append(0xE0 | c & 0x0F)
            Self.appendFourteenBit(value, to: &out)
        case .sysEx(let payload):
            out.reserveCapacity(out.count + payload.count + 2)
            out.append(0xF0)
            for byte in payload { out.append(byte & 0x7F) }
            out.append(0xF7)
        case .mtcQuarterFrame(let value):
            Self.append(0xF1, value & 0x7F, to: &out)
        case .songPosition(let value):
            out.append(0xF2)
            Self.appendFourteenBit(value, to: &out)
        case .songSelect(let song):
            Self.append(0xF3, song & 0x7F, to: &out)
        case .tuneRequest: out.append(0xF6)
        case .clock: out.append(0xF8)
        case .start: out.append(0xFA)
        case .continue: out.append(0xFB)
        case .stop: out.append(0xFC)
        case .activeSensing: out.append(0xFE)
        case .reset: out.append(0xFF)
        }
    }

    /// Appends a status byte and its data bytes one by one (no temporary array).
    @inline(__always)
    private static func append(_ status: UInt8, _ data1: UInt8, _ data2: UInt8? = nil, to out: inout [UInt8]) {
        out.append(status)
        out.append(data1)
        if let data2 { out.append(data2) }
    }

    /// A 14-bit value as two data bytes, least significant 7 bits first.
    private static func appendFourteenBit(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value & 0x7F))
        out.append(UInt8((value >> 7) & 0x7F))
    }

    /// The channel voice message for `status` (0x80…0xEF) and its data bytes;
    /// `data2` is ignored for the one-data-byte kinds (program change, channel pressure).
    static func channelVoice(status: UInt8, data1: UInt8, data2: UInt8) -> MIDIMessage {
        let channel = status & 0x0F
        switch status & 0xF0 {
        case 0x80: return .noteOff(channel: channel, note: data1, velocity: data2)
        case 0x90: return .noteOn(channel: channel, note: data1, velocity: data2)
        case 0xA0: return .polyPressure(channel: channel, note: data1, pressure: data2)
        case 0xB0: return .controlChange(channel: channel, controller: data1, value: data2)
        case 0xC0: return .programChange(channel: channel, program: data1)
        case 0xD0: return .channelPressure(channel: channel, pressure: data1)
        default: return .pitchBend(channel: channel, value: UInt16(data1) | UInt16(data2) << 7)
        }
    }

    /// How many data bytes follow a channel voice status byte (0x80…0xEF).
    static func dataLength(ofChannelStatus status: UInt8) -> Int {
        switch status & 0xF0 {
        case 0xC0, 0xD0: return 1
        default: return 2
        }
    }
}
