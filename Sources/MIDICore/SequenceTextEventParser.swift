/// Parses one event line, `[POSITION] EVENT ARGUMENTS [at POSITION]`, and `default` lines.
///
/// - Thread: any.
enum SequenceTextEventParser {
    /// What an event needs besides its own words.
    struct Context {
        var channel: UInt8
        var defaults: SequenceTextDefaults
        var division: MIDIFile.Division
    }

    static func eventLine(_ cursor: inout SequenceTextCursor, channel: UInt8, defaults: SequenceTextDefaults,
                          division: MIDIFile.Division) throws(SequenceTextError) -> SequenceTextStatement {
        var position: SequenceTextPosition?
        var positionColumn = cursor.column
        if let token = cursor.peek, SequenceTextCursor.isPosition(token) {
            position = try cursor.position()
        }
        let column = cursor.column
        let keyword = try cursor.word("event", fix: "write a note (C4 1/4), a chord (C4+E4+G4 1/2) or an event such as cc, program, tempo, marker")
        let context = Context(channel: channel, defaults: defaults, division: division)
        let event = try self.event(keyword, &cursor, context)
        if cursor.skip("at") {
            guard position == nil else {
                throw cursor.error("the event has two positions", fix: "give the position either first or after 'at', not both")
            }
            positionColumn = cursor.column
            position = try cursor.position()
        }
        try cursor.expectEnd(after: "'\(keyword.text)'")
        if position == nil {
            guard case .single(.meta) = event else {
                throw cursor.error("'\(keyword.text)' has no position", fix: "start the line with a position such as 1:1 or @0", at: keyword)
            }
        }
        return SequenceTextStatement(position: position, event: event, line: cursor.line, column: column, positionColumn: positionColumn)
    }

    /// `default [vel N] [rel N|on] [len LENGTH]`
    static func defaults(_ cursor: inout SequenceTextCursor, into defaults: inout SequenceTextDefaults,
                         division: MIDIFile.Division) throws(SequenceTextError) {
        guard !cursor.isAtEnd else { throw cursor.error("'default' sets nothing", fix: "write e.g. default vel 90 rel 0 len 1/8") }
        while let option = cursor.next() {
            switch option.text {
            case "vel": defaults.velocity = UInt8(try cursor.integer("velocity", in: 1...127))
            case "rel": defaults.release = try release(&cursor)
            case "len": defaults.length = try cursor.length(division: division)
            default: throw cursor.error("unknown default '\(option.text)'", fix: "use vel, rel or len", at: option)
            }
        }
    }

    private static func event(_ keyword: SequenceTextToken, _ cursor: inout SequenceTextCursor,
                              _ context: Context) throws(SequenceTextError) -> SequenceTextStatement.Event {
        if let meta = try metaEvent(keyword.text, &cursor) { return .single(.meta(meta)) }
        switch keyword.text {
        case "on", "off": return .single(.midi(try noteMessage(on: keyword.text == "on", &cursor, context)))
        case "cc", "program", "bend", "pressure": return .single(.midi(try channelMessage(keyword.text, &cursor, context)))
        case "sysex":
            let bytes = try cursor.hexBytes()
            guard bytes.first == 0xF0 else {
                throw cursor.error("sysex must start with f0", fix: "write the whole message, e.g. sysex f0 7e 7f 09 01 f7", at: keyword)
            }
            return .single(.sysEx(Array(bytes.dropFirst())))
        case "escape": return .single(.sysExEscape(try cursor.hexBytes()))
        case "raw": return .single(.midi(try rawMessage(keyword, &cursor)))
        case "end": return .end
        default: return try notes(keyword, &cursor, context)
        }
    }

    /// `C4 [LENGTH] [vel N] [rel N|on] [ch N]`, also chords `C4+E4+G4` and drum names.
    private static func notes(_ token: SequenceTextToken, _ cursor: inout SequenceTextCursor,
                              _ context: Context) throws(SequenceTextError) -> SequenceTextStatement.Event {
        guard SequenceTextCursor.looksLikeNotes(token.text) else {
            let noteLike = token.text.first.map { "ABCDEFGHabcdefgh".contains($0) } == true && token.text.last?.isNumber == true
            if noteLike { throw cursor.error("unknown note name '\(token.text)'", fix: SequenceTextCursor.noteFix, at: token) }
            throw cursor.error("unknown event '\(token.text)'", fix: "write a note such as C4, or one of on, off, cc, program, bend, pressure, sysex, raw, tempo, time, key, marker, lyric, text, meta, end", at: token)
        }
        var length = context.defaults.length
        var velocity = context.defaults.velocity
        var release = context.defaults.release
        var channel = context.channel
        while let option = cursor.peek, option.text != "at" {
            if SequenceTextCursor.isLength(option) {
                length = try cursor.length(division: context.division)
                continue
            }
            _ = cursor.next()
            switch option.text {
            case "vel": velocity = UInt8(try cursor.integer("velocity", in: 1...127))
            case "rel": release = try self.release(&cursor)
            case "ch": channel = UInt8(try cursor.integer("channel", in: 1...16) - 1)
            default:
                throw cursor.error("unknown note option '\(option.text)'", fix: "after a note write its length (1/4, 2b, 240t), vel N, rel N or ch N", at: option)
            }
        }
        guard let length else {
            throw cursor.error("note '\(token.text)' has no length", fix: "add a length such as 1/4, 2b or 240t, or set one with 'default len 1/8'")
        }
        var numbers: [UInt8] = []
        for part in token.text.split(separator: "+") {
            numbers.append(try cursor.note(part, at: token, channel: channel))
        }
        return .notes(numbers, channel: channel, length: length, velocity: velocity, release: release)
    }

    /// `rel N` (Note Off with release velocity N) or `rel on` (Note On with velocity 0).
    private static func release(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> SequenceTextRelease {
        if cursor.skip("on") { return .noteOnZero }
        return .noteOff(velocity: UInt8(try cursor.integer("release velocity", in: 0...127)))
    }

    /// Trailing `ch N` of a channel message.
    private static func channel(_ cursor: inout SequenceTextCursor, default channel: UInt8) throws(SequenceTextError) -> UInt8 {
        cursor.skip("ch") ? UInt8(try cursor.integer("channel", in: 1...16) - 1) : channel
    }

    /// `on NOTE [vel N] [ch N]`, `off NOTE [vel N] [ch N]`.
    private static func noteMessage(on: Bool, _ cursor: inout SequenceTextCursor, _ context: Context) throws(SequenceTextError) -> MIDIMessage {
        let noteToken = try cursor.word("note", fix: SequenceTextCursor.noteFix)
        let velocity = cursor.skip("vel") ? UInt8(try cursor.integer("velocity", in: 0...127)) : nil
        let channel = try self.channel(&cursor, default: context.channel)
        let note = try cursor.note(Substring(noteToken.text), at: noteToken, channel: channel)
        if on { return .noteOn(channel: channel, note: note, velocity: velocity ?? context.defaults.velocity) }
        if let velocity { return .noteOff(channel: channel, note: note, velocity: velocity) }
        switch context.defaults.release {
        case .noteOff(let velocity): return .noteOff(channel: channel, note: note, velocity: velocity)
        case .noteOnZero: return .noteOn(channel: channel, note: note, velocity: 0)
        }
    }

    /// `cc CONTROLLER [=] VALUE`, `program N`, `bend ±N`, `pressure V`, `pressure NOTE [=] V`; each with `[ch N]`.
    private static func channelMessage(_ keyword: String, _ cursor: inout SequenceTextCursor, _ context: Context) throws(SequenceTextError) -> MIDIMessage {
        switch keyword {
        case "cc":
            let token = try cursor.word("controller", fix: "give a controller number 0-127 or a name such as volume, pan, sustain")
            guard let controller = SequenceTextNames.controller(named: Substring(token.text))
                    ?? SequenceTextCursor.integer(token.text).flatMap({ (0...127).contains($0) ? UInt8($0) : nil })
            else { throw cursor.error("unknown controller '\(token.text)'", fix: "give a controller number 0-127 or a name such as volume, pan, sustain", at: token) }
            _ = cursor.skip("=")
            let value = UInt8(try cursor.integer("controller value", in: 0...127))
            return .controlChange(channel: try channel(&cursor, default: context.channel), controller: controller, value: value)
        case "program":
            let program = UInt8(try cursor.integer("program", in: 1...128) - 1)
            return .programChange(channel: try channel(&cursor, default: context.channel), program: program)
        case "bend":
            let value = try cursor.integer("pitch bend", in: -8192...8191)
            return .pitchBend(channel: try channel(&cursor, default: context.channel), value: UInt16(value + 8192))
        default:
            let first = try cursor.word("pressure", fix: "write pressure VALUE, or pressure NOTE = VALUE for one key")
            let isPoly = cursor.skip("=") || (cursor.peek.map { $0.text != "ch" && $0.text != "at" } ?? false)
            guard isPoly else {
                guard let value = SequenceTextCursor.integer(first.text), (0...127).contains(value) else {
                    throw cursor.error("pressure '\(first.text)' is not 0-127", fix: "write pressure VALUE with VALUE 0-127", at: first)
                }
                return .channelPressure(channel: try channel(&cursor, default: context.channel), pressure: UInt8(value))
            }
            let value = UInt8(try cursor.integer("pressure", in: 0...127))
            let channel = try channel(&cursor, default: context.channel)
            return .polyPressure(channel: channel, note: try cursor.note(Substring(first.text), at: first, channel: channel), pressure: value)
        }
    }

    /// `raw HEX…`: exactly one MIDI message, decoded by `MIDIParser`.
    private static func rawMessage(_ keyword: SequenceTextToken, _ cursor: inout SequenceTextCursor) throws(SequenceTextError) -> MIDIMessage {
        let bytes = try cursor.hexBytes()
        var parser = MIDIParser()
        let messages = parser.parse(bytes)
        guard messages.count == 1, parser.skippedBytes == 0, parser.truncatedMessages == 0,
              messages[0].bytes == bytes else {
            throw cursor.error("raw bytes are not exactly one complete MIDI message", fix: "write one message with its status byte, e.g. raw 90 3c 64 or raw f8", at: keyword)
        }
        return messages[0]
    }
}
