/// Reads the text sequence format (see docs/sequence-format.md) into a `MIDIFile`.
///
/// Works in three steps: every line is parsed into statements grouped by track;
/// the time signatures are placed to build the bar map; then positions and lengths
/// become ticks and each track's events are ordered (see `SequenceTextAssembler`).
///
/// - Thread: any.
struct SequenceTextParser {
    private var format: UInt16 = 1
    private var division = MIDIFile.Division.ticksPerQuarter(480)
    private var conductor = SequenceTextTrackDraft(line: 0)
    private var tracks: [SequenceTextTrackDraft] = []
    private var defaults = SequenceTextDefaults()
    /// The current track's channel (0-based); top-level statements use channel 1.
    private var channel: UInt8 = 0
    private var sawBody = false

    static func parse(_ text: String) throws(SequenceTextError) -> MIDIFile {
        var parser = SequenceTextParser()
        var lineNumber = 0
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init) {
            lineNumber += 1
            let tokens = try SequenceTextLexer.tokens(of: line, lineNumber: lineNumber)
            guard !tokens.isEmpty else { continue }
            var cursor = SequenceTextCursor(tokens: tokens, line: lineNumber, lineLength: line.count)
            try parser.statement(&cursor)
        }
        return try parser.assemble()
    }

    private mutating func statement(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) {
        let first = cursor.peek!
        switch first.kind == .word ? first.text : "" {
        case "ppq", "smpte", "format":
            guard !sawBody else {
                throw cursor.error("'\(first.text)' comes after tracks or events", fix: "move ppq, smpte and format lines to the top of the file", at: first)
            }
            try header(&cursor)
        case "track":
            sawBody = true
            try track(&cursor)
        case "default":
            _ = cursor.next()
            try SequenceTextEventParser.defaults(&cursor, into: &defaults, division: division)
        default:
            sawBody = true
            let statement = try SequenceTextEventParser.eventLine(&cursor, channel: channel, defaults: defaults, division: division)
            if tracks.isEmpty {
                conductor.statements.append(statement)
            } else {
                tracks[tracks.count - 1].statements.append(statement)
            }
        }
    }

    private mutating func header(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) {
        let keyword = cursor.next()!
        switch keyword.text {
        case "ppq":
            division = .ticksPerQuarter(UInt16(try cursor.integer("ticks per quarter note", in: 1...32767)))
        case "smpte":
            let framesPerSecond = try cursor.integer("frames per second", in: 1...127)
            let ticksPerFrame = try cursor.integer("ticks per frame", in: 1...255)
            division = .smpte(framesPerSecond: UInt8(framesPerSecond), ticksPerFrame: UInt8(ticksPerFrame))
        default:
            format = UInt16(try cursor.integer("format", in: 0...2))
        }
        try cursor.expectEnd(after: keyword.text)
    }

    /// `track ["name"] [channel N] [program N]`
    private mutating func track(_ cursor: inout SequenceTextCursor) throws(SequenceTextError) {
        _ = cursor.next()
        var draft = SequenceTextTrackDraft(line: cursor.line)
        channel = 0
        func implied(_ kind: TrackEvent.Kind, column: Int) -> SequenceTextStatement {
            SequenceTextStatement(position: nil, event: .single(kind), line: cursor.line, column: column, positionColumn: column)
        }
        if cursor.peek?.kind == .string {
            let column = cursor.column
            draft.statements.append(implied(.meta(.trackName(try cursor.string("track name"))), column: column))
        }
        var program: (value: Int, column: Int)?
        while let option = cursor.next() {
            switch option.text {
            case "channel": channel = UInt8(try cursor.integer("channel", in: 1...16) - 1)
            case "program": program = (try cursor.integer("program", in: 1...128), option.column)
            default:
                throw cursor.error("unknown track option '\(option.text)'", fix: "write track \"Name\" channel 1-16 program 1-128", at: option)
            }
        }
        if let program {
            let message = MIDIMessage.programChange(channel: channel, program: UInt8(program.value - 1))
            draft.statements.append(implied(.midi(message), column: program.column))
        }
        tracks.append(draft)
    }

    private func assemble() throws(SequenceTextError) -> MIDIFile {
        let drafts = conductor.statements.isEmpty ? tracks : [conductor] + tracks
        let assembler = try SequenceTextAssembler(drafts: drafts, division: division)
        return MIDIFile(format: format, division: division, tracks: try assembler.tracks())
    }
}
