import MIDICore

/// The MIDI list of a packet's command section (RFC 6295 §3): commands with delta
/// times between them, running status for channel messages, SysEx in segments.
/// - Thread: any (pure).
enum CommandList {
    /// The list's bytes and whether a delta time precedes the first command (the Z flag:
    /// only when the first command's delta is not 0, so peers that ignore Z still parse
    /// a packet that starts at its timestamp). Running status as MIDI 1.0 has it:
    /// real-time commands keep it, system common and SysEx end it. Stops before the
    /// first command that would take the list past `capacity` bytes.
    ///
    /// - Thread: any.
    static func encode(_ commands: [RTPMIDICommand], capacity: Int) -> (bytes: [UInt8], hasFirstDelta: Bool) {
        var out: [UInt8] = []
        let hasFirstDelta = (commands.first?.delta ?? 0) != 0
        var runningStatus: UInt8?
        for (index, command) in commands.enumerated() {
            var bytes: [UInt8] = []
            if index > 0 || hasFirstDelta { DeltaTime.append(command.delta, to: &bytes) }
            let deltaLength = bytes.count
            appendMessage(of: command, to: &bytes)
            let status = bytes[deltaLength]
            if status < 0xF0 {
                if status == runningStatus { bytes.remove(at: deltaLength) }
                runningStatus = status
            } else if status < 0xF8 {
                runningStatus = nil
            }
            guard out.count + bytes.count <= capacity else { break }
            out += bytes
        }
        return (out, hasFirstDelta)
    }

    /// The command's full MIDI bytes; a SysEx segment framed as its `sysExSegment` says.
    private static func appendMessage(of command: RTPMIDICommand, to out: inout [UInt8]) {
        guard case .sysEx(let payload) = command.message else {
            command.message.encode(into: &out)
            return
        }
        let framing = command.sysExSegment.framing
        out.append(framing.opening)
        for byte in payload { out.append(byte & 0x7F) }
        out.append(framing.closing)
    }

    /// The commands of a list; `hasFirstDelta` is the Z flag.
    ///
    /// - Thread: any.
    static func decode(_ reader: inout ByteReader, hasFirstDelta: Bool) throws(RTPMIDIDecodingError) -> [RTPMIDICommand] {
        var commands: [RTPMIDICommand] = []
        var runningStatus: UInt8?
        while !reader.isAtEnd {
            let delta = try commands.isEmpty && !hasFirstDelta ? 0 : DeltaTime.read(from: &reader)
            guard !reader.isAtEnd else { throw .truncatedCommand }
            var status = try reader.peek()
            if status < 0x80 {
                guard let running = runningStatus else { throw .missingStatus }
                status = running
            } else {
                try reader.skip(1)
            }
            switch status {
            case 0x80..<0xF0:
                runningStatus = status
                commands.append(RTPMIDICommand(delta: delta, message: try channelMessage(status, &reader)))
            case 0xF0, 0xF7:
                runningStatus = nil
                commands += try sysExSegment(opening: status, delta: delta, &reader)
            case 0xF1..<0xF8:
                runningStatus = nil
                commands.append(RTPMIDICommand(delta: delta, message: try systemCommon(status, &reader)))
            default:
                commands.append(RTPMIDICommand(delta: delta, message: try realtime(status)))
            }
        }
        return commands
    }

    private static func dataByte(_ reader: inout ByteReader) throws(RTPMIDIDecodingError) -> UInt8 {
        guard let byte = try? reader.byte(), byte < 0x80 else { throw .truncatedCommand }
        return byte
    }

    private static func channelMessage(_ status: UInt8, _ reader: inout ByteReader) throws(RTPMIDIDecodingError) -> MIDIMessage {
        let channel = status & 0x0F
        let first = try dataByte(&reader)
        switch status & 0xF0 {
        case 0xC0: return .programChange(channel: channel, program: first)
        case 0xD0: return .channelPressure(channel: channel, pressure: first)
        default: break
        }
        let second = try dataByte(&reader)
        switch status & 0xF0 {
        case 0x80: return .noteOff(channel: channel, note: first, velocity: second)
        case 0x90: return .noteOn(channel: channel, note: first, velocity: second)
        case 0xA0: return .polyPressure(channel: channel, note: first, pressure: second)
        case 0xB0: return .controlChange(channel: channel, controller: first, value: second)
        default: return .pitchBend(channel: channel, value: UInt16(first) | UInt16(second) << 7)
        }
    }

    private static func systemCommon(_ status: UInt8, _ reader: inout ByteReader) throws(RTPMIDIDecodingError) -> MIDIMessage {
        switch status {
        case 0xF1: return .mtcQuarterFrame(try dataByte(&reader))
        case 0xF2:
            let low = try dataByte(&reader)
            return .songPosition(UInt16(low) | UInt16(try dataByte(&reader)) << 7)
        case 0xF3: return .songSelect(try dataByte(&reader))
        case 0xF6: return .tuneRequest
        default: throw .undefinedStatus(status)
        }
    }

    private static func realtime(_ status: UInt8) throws(RTPMIDIDecodingError) -> MIDIMessage {
        switch status {
        case 0xF8: return .clock
        case 0xFA: return .start
        case 0xFB: return .continue
        case 0xFC: return .stop
        case 0xFE: return .activeSensing
        case 0xFF: return .reset
        default: throw .undefinedStatus(status)
        }
    }

    /// A SysEx segment up to its terminator, and the real-time commands embedded in it
    /// (after it, at the same time).
    private static func sysExSegment(opening: UInt8, delta: UInt32, _ reader: inout ByteReader) throws(RTPMIDIDecodingError) -> [RTPMIDICommand] {
        var payload: [UInt8] = []
        var embedded: [RTPMIDICommand] = []
        while true {
            guard let byte = try? reader.byte() else { throw .unterminatedSysEx }
            switch byte {
            case 0x00..<0x80: payload.append(byte)
            case 0xF0, 0xF4, 0xF7:
                // F4 ends a segment as a cancel whatever opened it.
                let segment = SysExSegment(opening: opening, closing: byte) ?? .cancel
                return [RTPMIDICommand(delta: delta, message: .sysEx(payload), sysExSegment: segment)] + embedded
            case 0xF8...0xFF:
                do throws(RTPMIDIDecodingError) {
                    embedded.append(RTPMIDICommand(message: try realtime(byte)))
                } catch { throw .statusInsideSysEx(byte) }
            default: throw .statusInsideSysEx(byte)
            }
        }
    }
}
