import MIDICore
import TestSupport
import Testing

/// Lossless round trips: MIDIFile → text → MIDIFile and text → MIDIFile → text → MIDIFile.
@Suite struct SequenceTextRoundTripTests {
    /// Parses the rendering of `file` and reports the first differing event, so a failure is readable.
    private func expectRoundTrip(_ file: MIDIFile, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let text = SequenceText.render(file)
        let parsed: MIDIFile
        do {
            parsed = try SequenceText.parse(text)
        } catch {
            Issue.record("rendered text does not parse: \(error)\n\(text.prefix(3000))", sourceLocation: sourceLocation)
            return
        }
        #expect(parsed.format == file.format, sourceLocation: sourceLocation)
        #expect(parsed.division == file.division, sourceLocation: sourceLocation)
        #expect(parsed.tracks.count == file.tracks.count, sourceLocation: sourceLocation)
        for (index, (got, want)) in zip(parsed.tracks, file.tracks).enumerated() {
            #expect(got.endTick == want.endTick, "track \(index) end", sourceLocation: sourceLocation)
            #expect(got.events.count == want.events.count, "track \(index) event count", sourceLocation: sourceLocation)
            if let mismatch = zip(got.events, want.events).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
                Issue.record("track \(index) event \(mismatch.offset): got \(mismatch.element.0), want \(mismatch.element.1)", sourceLocation: sourceLocation)
            }
        }
        let identical = parsed == file
        #expect(identical, "parsed file differs from the original", sourceLocation: sourceLocation)
    }

    @Test(arguments: 0..<40)
    func generatedFileSurvivesTextRoundTrip(seed: UInt64) throws {
        try expectRoundTrip(GeneratedFiles.file(seed: seed, format: seed % 3 == 0 ? 0 : 1))
    }

    @Test(arguments: 0..<20)
    func generatedFileSurvivesSMFThenText(seed: UInt64) throws {
        let file = try MIDIFile(smf: GeneratedFiles.file(seed: 1000 + seed).smfBytes())
        try expectRoundTrip(file)
    }

    /// Found by FuzzSequenceText: a combining mark after an escape or an opening quote
    /// merged with it into one character, and the rendering no longer parsed. (The
    /// arguments are titles as written in a .song file.)
    @Test(arguments: [#"\u{14}\u{301}x"#, #"\u{301}"#, #"a\\\u{301}"#, #"\"\u{20dd}"#])
    func combiningMarksNextToEscapesSurvive(title: String) throws {
        let file = try SequenceText.parse("ppq 480\ntitle \"\(title)\"\n")
        #expect(file.tracks.first?.events.count == 1, "the title")
        try expectRoundTrip(file)
    }

    /// Lines may end in CR LF (a file saved on Windows).
    @Test func crlfLinesParseAsLines() throws {
        let text = try Repository.text("sequences/little-song.song")
        let crlf = text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
        #expect(try SequenceText.parse(crlf) == SequenceText.parse(text))
    }

    @Test func overlappingSameNotesKeepTheirOrder() throws {
        // Two C4s overlap; a release and a new Note On share a tick in both orders.
        let events: [TrackEvent] = [
            TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 90))),
            TrackEvent(tick: 240, .midi(.noteOn(channel: 0, note: 60, velocity: 80))),
            TrackEvent(tick: 480, .midi(.noteOff(channel: 0, note: 60, velocity: 0))),
            TrackEvent(tick: 480, .midi(.noteOn(channel: 0, note: 62, velocity: 80))),
            TrackEvent(tick: 720, .midi(.noteOn(channel: 0, note: 64, velocity: 80))),
            TrackEvent(tick: 720, .midi(.noteOff(channel: 0, note: 60, velocity: 0))),
            TrackEvent(tick: 960, .midi(.noteOn(channel: 0, note: 62, velocity: 0))),
            TrackEvent(tick: 960, .midi(.noteOn(channel: 0, note: 65, velocity: 70))),
            TrackEvent(tick: 960, .midi(.noteOff(channel: 0, note: 65, velocity: 10))),
            TrackEvent(tick: 960, .midi(.noteOff(channel: 0, note: 64, velocity: 10))),
        ]
        try expectRoundTrip(MIDIFile(tracks: [MIDITrack(events: events, endTick: 1920)]))
    }

    @Test func chordsAndDrumsRenderReadably() throws {
        let text = """
        ppq 96
        tempo 100
        track "Keys" channel 1 program 1
          1:1 C4+E4+G4 1/2 vel 90
          1:3 D4 1/4
        track "Drums" channel 10
          1:1 kick 1/16
          1:2 snare 1/16 vel 110
        """
        let file = try SequenceText.parse(text)
        let rendered = SequenceText.render(file)
        #expect(rendered.contains("C4+E4+G4 1/2"))
        #expect(rendered.contains("kick 1/16"))
        #expect(rendered.contains("track \"Keys\" channel 1 program 1"))
        #expect(try SequenceText.parse(rendered) == file)
        // Text → file → text is stable: rendering the reparsed file gives the same text.
        #expect(SequenceText.render(try SequenceText.parse(rendered)) == rendered)
    }
}

/// Note-heavy random tracks: overlapping equal notes, releases and Note Ons on the
/// same tick in any order, zero-length notes, both release styles, mid-bar meter changes.
@Suite struct SequenceTextNoteRoundTripTests {
    static func noteFile(seed: UInt64) -> MIDIFile {
        var random = SeededGenerator(seed: seed)
        var conductor: [TrackEvent] = [TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000)))]
        var tick: UInt64 = 0
        for _ in 0..<4 {
            tick += UInt64.random(in: 1...4000, using: &random)
            let power = UInt8.random(in: 1...4, using: &random)
            conductor.append(TrackEvent(tick: Tick(tick), .meta(.timeSignature(
                numerator: UInt8.random(in: 1...9, using: &random), denominatorPower: power,
                clocksPerClick: 96 >> power, thirtySecondsPerQuarter: 8))))
        }
        var events: [(tick: UInt64, order: Int, message: MIDIMessage)] = []
        for order in 0..<300 {
            let start = UInt64.random(in: 0...8000, using: &random) / 60 * 60
            let length = [0, 60, 120, 240, 480, UInt64.random(in: 1...999, using: &random)][Int.random(in: 0..<6, using: &random)]
            let channel = UInt8.random(in: 0...2, using: &random) == 0 ? 9 : UInt8.random(in: 0...1, using: &random)
            let note = UInt8.random(in: 36...42, using: &random)
            events.append((start, order, .noteOn(channel: channel, note: note, velocity: UInt8.random(in: 1...127, using: &random))))
            let release: MIDIMessage = Bool.random(using: &random)
                ? .noteOn(channel: channel, note: note, velocity: 0)
                : .noteOff(channel: channel, note: note, velocity: [0, 64, UInt8.random(in: 0...127, using: &random)][Int.random(in: 0..<3, using: &random)])
            // Most writers put releases first at a tick, in the order the notes started;
            // some files interleave them.
            var releaseOrder = Int.random(in: 0..<5, using: &random) == 0 ? Int.random(in: 0..<1000, using: &random) : Int(start) - 10_000
            if length == 0 { releaseOrder = order + 1 }
            events.append((start + length, releaseOrder, release))
        }
        let sorted = events.sorted { ($0.tick, $0.order) < ($1.tick, $1.order) }
        let track = MIDITrack(events: sorted.map { TrackEvent(tick: Tick($0.tick), .midi($0.message)) })
        return MIDIFile(division: .ticksPerQuarter(480), tracks: [MIDITrack(events: conductor), track])
    }

    @Test(arguments: 0..<30)
    func noteHeavyFileSurvivesTextRoundTrip(seed: UInt64) throws {
        let file = Self.noteFile(seed: seed)
        let text = SequenceText.render(file)
        let parsed = try SequenceText.parse(text)
        let identical = parsed == file
        #expect(identical)
        // Most notes become note lines (the test would be hollow if everything were raw on/off).
        let rawLines = text.split(separator: "\n").filter { line in
            let words = line.split(separator: " ")
            return words.count > 1 && (words[1] == "on" || words[1] == "off")
        }.count
        #expect(rawLines < 200, "\(rawLines) raw note lines")
    }
}
