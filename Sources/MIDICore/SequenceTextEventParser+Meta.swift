/// Meta events: tempo, time and key signatures, texts, and the rarer ones.
extension SequenceTextEventParser {
    /// The meta event `keyword` starts, nil when `keyword` is not a meta event.
    static func metaEvent(_ keyword: String, _ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> MetaEvent? {
        switch keyword {
        case "tempo": return try tempo(&cursor)
        case "time": return try timeSignature(&cursor)
        case "key": return try keySignature(&cursor)
        case "title", "name": return .trackName(try cursor.string("name"))
        case "text": return .text(try cursor.string("text"))
        case "copyright": return .copyright(try cursor.string("copyright notice"))
        case "instrument": return .instrumentName(try cursor.string("instrument name"))
        case "lyric": return .lyric(try cursor.string("lyric"))
        case "marker": return .marker(try cursor.string("marker"))
        case "cue": return .cuePoint(try cursor.string("cue point"))
        case "program-name": return .programName(try cursor.string("program name"))
        case "device": return .deviceName(try cursor.string("device name"))
        case "sequence-number": return .sequenceNumber(UInt16(try cursor.integer("sequence number", in: 0...65535)))
        case "channel-prefix": return .channelPrefix(UInt8(try cursor.integer("channel", in: 1...256) - 1))
        case "port": return .port(UInt8(try cursor.integer("port", in: 0...255)))
        case "smpte-offset":
            var fields: [UInt8] = []
            for name in ["hours", "minutes", "seconds", "frames", "subframes"] {
                fields.append(UInt8(try cursor.integer(name, in: 0...255)))
            }
            return .smpteOffset(hours: fields[0], minutes: fields[1], seconds: fields[2], frames: fields[3], subframes: fields[4])
        case "sequencer-specific": return .sequencerSpecific(try cursor.hexBytes())
        case "meta":
            let type = UInt8(try cursor.integer("meta type", in: 0...255))
            guard type != MetaEvent.endOfTrackType else {
                throw cursor.error("meta type 0x2f is End of Track", fix: "write 'end' at the track's end position instead")
            }
            return MetaEvent(type: type, data: try cursor.hexBytes())
        default: return nil
        }
    }

    /// `tempo BPM` (quarter notes per minute, decimals allowed) or `tempo Nus`
    /// (microseconds per quarter note).
    private static func tempo(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> MetaEvent {
        let fix = "write BPM such as 120 or 92.5, or microseconds per quarter such as 500000us"
        let token = try cursor.word("tempo", fix: fix)
        if token.text.hasSuffix("us") {
            guard let micros = UInt32(token.text.dropLast(2)), micros <= 0xFF_FFFF else {
                throw cursor.error("tempo '\(token.text)' is not 0-16777215 microseconds", fix: fix, at: token)
            }
            return .tempo(microsecondsPerQuarter: micros)
        }
        guard let bpm = Double(token.text), bpm.isFinite, bpm > 0 else {
            throw cursor.error("tempo '\(token.text)' is not a number of beats per minute", fix: fix, at: token)
        }
        let micros = (60_000_000 / bpm).rounded()
        guard micros >= 1, micros <= 0xFF_FFFF else {
            throw cursor.error("tempo \(token.text) BPM is outside 3.58-60000000", fix: fix, at: token)
        }
        return .tempo(microsecondsPerQuarter: UInt32(micros))
    }

    /// `time N/D [clocks C] [32nds T]`; clocks default to 96/D (at least 1), 32nds to 8.
    private static func timeSignature(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> MetaEvent {
        let fix = "write beats/beat-unit with a power-of-two unit, e.g. 4/4, 3/4, 6/8"
        let token = try cursor.word("time signature", fix: fix)
        let parts = token.text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let numerator = UInt8(parts[0]), numerator >= 1,
              let denominator = Int(parts[1]), denominator >= 1, denominator <= 1 << 30, denominator & (denominator - 1) == 0
        else { throw cursor.error("'\(token.text)' is not a time signature", fix: fix, at: token) }
        let power = UInt8(denominator.trailingZeroBitCount)
        var clocks = UInt8(max(1, 96 >> Int(power)))
        var thirtySeconds: UInt8 = 8
        while let option = cursor.peek, option.text == "clocks" || option.text == "32nds" {
            _ = cursor.next()
            let value = UInt8(try cursor.integer(option.text == "clocks" ? "MIDI clocks per click" : "32nd notes per quarter", in: 0...255))
            if option.text == "clocks" { clocks = value } else { thirtySeconds = value }
        }
        return .timeSignature(numerator: numerator, denominatorPower: power, clocksPerClick: clocks, thirtySecondsPerQuarter: thirtySeconds)
    }

    /// `key TONIC major|minor`, e.g. `key Eb major`, `key F# minor`.
    private static func keySignature(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> MetaEvent {
        let fix = "write a tonic and mode with at most 7 sharps or flats, e.g. key Eb major, key F# minor"
        let tonic = try cursor.word("key tonic", fix: fix)
        let mode = try cursor.word("major or minor", fix: fix)
        guard mode.text == "major" || mode.text == "minor" else {
            throw cursor.error("key mode '\(mode.text)' is not major or minor", fix: fix, at: mode)
        }
        guard let sharps = SequenceTextNames.sharps(tonic: Substring(tonic.text), minor: mode.text == "minor") else {
            throw cursor.error("no key signature for '\(tonic.text) \(mode.text)'", fix: fix, at: tonic)
        }
        return .keySignature(sharps: sharps, minor: mode.text == "minor")
    }
}
