/// Text for single events: channel messages, SysEx, meta events.
extension SequenceTextRenderer {
    /// The event's words after its position, e.g. `cc volume = 100 ch 2`.
    /// `channel` is the track's channel (a message on another gets `ch N`).
    func describe(_ kind: TrackEvent.Kind, channel: UInt8, conductor: Bool) -> String {
        switch kind {
        case .midi(let message):
            guard let messageChannel = message.channel else { return "raw " + Self.hex(message.bytes) }
            let words = channelWords(message)
            return messageChannel == channel ? words : words + " ch \(messageChannel + 1)"
        case .sysEx(let data): return "sysex " + Self.hex([0xF0] + data)
        case .sysExEscape(let data): return data.isEmpty ? "escape" : "escape " + Self.hex(data)
        case .meta(let meta): return metaWords(meta, conductor: conductor)
        }
    }

    private func channelWords(_ message: MIDIMessage) -> String {
        switch message {
        case .noteOn(let channel, let note, let velocity):
            let name = noteWord(note, channel: channel)
            return velocity == defaults.velocity ? "on \(name)" : "on \(name) vel \(velocity)"
        case .noteOff(let channel, let note, let velocity):
            let name = noteWord(note, channel: channel)
            return defaults.release == .noteOff(velocity: velocity) ? "off \(name)" : "off \(name) vel \(velocity)"
        case .polyPressure(let channel, let note, let pressure):
            return "pressure \(noteWord(note, channel: channel)) = \(pressure)"
        case .controlChange(_, let controller, let value):
            return "cc \(SequenceTextNames.controllerName(controller) ?? String(controller)) = \(value)"
        case .programChange(_, let program): return "program \(Int(program) + 1)"
        case .channelPressure(_, let pressure): return "pressure \(pressure)"
        case .pitchBend(_, let value):
            let signed = Int(value) - 8192
            return signed > 0 ? "bend +\(signed)" : "bend \(signed)"
        default: return "raw " + Self.hex(message.bytes)
        }
    }

    private func metaWords(_ meta: MetaEvent, conductor: Bool) -> String {
        switch meta {
        case .sequenceNumber(let number): return "sequence-number \(number)"
        case .text(let text): return "text " + Self.quoted(text)
        case .copyright(let text): return "copyright " + Self.quoted(text)
        case .trackName(let text): return (conductor ? "title " : "name ") + Self.quoted(text)
        case .instrumentName(let text): return "instrument " + Self.quoted(text)
        case .lyric(let text): return "lyric " + Self.quoted(text)
        case .marker(let text): return "marker " + Self.quoted(text)
        case .cuePoint(let text): return "cue " + Self.quoted(text)
        case .programName(let text): return "program-name " + Self.quoted(text)
        case .deviceName(let text): return "device " + Self.quoted(text)
        case .channelPrefix(let channel): return "channel-prefix \(Int(channel) + 1)"
        case .port(let port): return "port \(port)"
        case .tempo(let micros): return "tempo " + Self.tempoWord(micros)
        case .smpteOffset(let hours, let minutes, let seconds, let frames, let subframes):
            return "smpte-offset \(hours) \(minutes) \(seconds) \(frames) \(subframes)"
        case .timeSignature(let numerator, let power, let clocks, let thirtySeconds) where numerator >= 1 && power <= 30:
            var words = "time \(numerator)/\(1 << Int(power))"
            if clocks != UInt8(max(1, 96 >> Int(power))) { words += " clocks \(clocks)" }
            if thirtySeconds != 8 { words += " 32nds \(thirtySeconds)" }
            return words
        case .keySignature(let sharps, let minor) where SequenceTextNames.keyName(sharps: sharps, minor: minor) != nil:
            return "key " + SequenceTextNames.keyName(sharps: sharps, minor: minor)!
        case .sequencerSpecific(let data): return data.isEmpty ? "sequencer-specific" : "sequencer-specific " + Self.hex(data)
        default:
            let (type, data) = meta.typeAndData
            let typeWord = "0x" + Self.hex([type])
            return data.isEmpty ? "meta \(typeWord)" : "meta \(typeWord) " + Self.hex(data)
        }
    }

    /// Whole BPM when exact, else the shortest BPM with up to 3 decimals that parses
    /// back to the same microseconds, else `Nus`.
    static func tempoWord(_ micros: UInt32) -> String {
        guard micros > 0 else { return "0us" }
        var scale = 1
        for decimals in 0...3 {
            let scaled = (60_000_000 * Double(scale) / Double(micros)).rounded()
            let whole = Int(scaled) / scale
            let fraction = Int(scaled) % scale
            var word = String(whole)
            if decimals > 0 {
                let digits = String(fraction)
                word += "." + String(repeating: "0", count: decimals - digits.count) + digits
            }
            if let bpm = Double(word), bpm > 0, (60_000_000 / bpm).rounded() == Double(micros) { return word }
            scale *= 10
        }
        return "\(micros)us"
    }

    /// A double-quoted string with `"`, `\` and control characters escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator {
                    result += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined(separator: " ")
    }
}
