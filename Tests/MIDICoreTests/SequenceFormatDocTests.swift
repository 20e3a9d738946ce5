import Foundation
import MIDICore
import Testing
import TestSupport

/// docs/sequence-format.md against the real text parser: the example parses to exactly the
/// events its comments describe, the error lines are what the parser says for real bad
/// input, and the example songs it lists hold what it says they hold.
@Suite struct SequenceFormatDocTests {
    static let page = "docs/sequence-format.md"

    /// The page's blocks: the example, the `midihub` command lines (run by the CLI's doc
    /// test), two grammars and the error lines.
    static func blocks() throws -> [DocumentBlock] {
        let blocks = try Repository.blocks(in: page)
        #expect(blocks.count == 5, "the page's blocks changed: update this test")
        return blocks
    }

    @Test func sequenceFormatExampleParses() throws {
        let example = try #require(try Self.blocks().first)
        let file = try SequenceText.parse(example.text)

        #expect(file.format == 1 && file.division == .ticksPerQuarter(480))
        try #require(file.tracks.count == 3, "the conductor, Bass and Drums")
        let bar = UInt64(4 * 480)
        // The conductor: 120 BPM and 4/4 from 1:1, G major, the title; 96 BPM and 3/4 from 9:1.
        #expect(file.tracks[0] == MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 500_000))),
            TrackEvent(tick: 0, .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerClick: 24,
                                                     thirtySecondsPerQuarter: 8))),
            TrackEvent(tick: 0, .meta(.keySignature(sharps: 1, minor: false))),
            TrackEvent(tick: 0, .meta(.trackName("Little Song"))),
            TrackEvent(tick: Tick(8 * bar), .meta(.tempo(microsecondsPerQuarter: 625_000))),
            TrackEvent(tick: Tick(8 * bar), .meta(.timeSignature(numerator: 3, denominatorPower: 2, clocksPerClick: 24,
                                                           thirtySecondsPerQuarter: 8))),
        ], endTick: Tick(8 * bar)))

        // Bass on channel 2 (0-based 1) with GM program 34 (sent as 33); velocity 95 from
        // `default vel 95`, releases are Note Offs with velocity 64. At one tick, the release
        // of an earlier note comes before the next Note On.
        func on(_ tick: UInt64, _ note: UInt8, _ velocity: UInt8 = 95, channel: UInt8 = 1) -> TrackEvent {
            TrackEvent(tick: Tick(tick), .midi(.noteOn(channel: channel, note: note, velocity: velocity)))
        }
        func off(_ tick: UInt64, _ note: UInt8, channel: UInt8 = 1) -> TrackEvent {
            TrackEvent(tick: Tick(tick), .midi(.noteOff(channel: channel, note: note, velocity: 64)))
        }
        let g2: UInt8 = 43, d2: UInt8 = 38, c3: UInt8 = 48
        #expect(file.tracks[1] == MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.trackName("Bass"))),
            TrackEvent(tick: 0, .midi(.programChange(channel: 1, program: 33))),
            on(0, g2), off(480, g2),                       // 1:1 G2 1/4
            on(480, g2), off(720, g2),                     // 1:2 G2 1/8
            on(720, d2), off(960, d2),                     // 1:2.5 D2 1/8
            TrackEvent(tick: Tick(bar), .midi(.controlChange(channel: 1, controller: 7, value: 100))),
            TrackEvent(tick: Tick(bar), .midi(.pitchBend(channel: 1, value: 8192 + 2048))),
            on(2 * bar + 120, c3, 80), off(2 * bar + 360, c3), // 3:1:120 C3 240t vel 80
        ], endTick: Tick(2 * bar + 360)))

        // Drums on channel 10 (0-based 9): kick (36) and closed hi-hat (42) together, a 16th long.
        #expect(file.tracks[2] == MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.trackName("Drums"))),
            on(0, 36, channel: 9), on(0, 42, channel: 9),
            off(120, 36, channel: 9), off(120, 42, channel: 9),
        ], endTick: 120))
    }

    /// A song without mistakes; `sequenceFormatErrorsAreWhatTheParserSays` puts one in.
    static let song = """
        # midihub sequence
        tempo 100
        track "Melody"
          1:1   G4 1/4
          1:2   A4 1/4
          1:3   B4 1/2
          2:1   D5 1/2
          2:3   B4 1/4
          2:4   G4 1/4
          3:1   A4 1/4
          3:2   B4 1/4
          3:3   C5 1/4
          3:4   A4 1/4
          4:1   G4 1/1
        """

    /// The page's error lines, each what the parser says about `song` with one line changed,
    /// with the file name in front as `midihub` writes it.
    @Test func sequenceFormatErrorsAreWhatTheParserSays() throws {
        let melody = try SequenceText.parse(Self.song)
        #expect(melody.tracks.count == 2 && melody.tracks[1].events.count == 1 + 2 * 11, "the tempo, then the name and 11 notes")

        func parserSays(line: Int, _ replacement: String) throws -> String {
            var lines = Self.song.components(separatedBy: "\n")
            try #require(lines.indices.contains(line - 1))
            lines[line - 1] = replacement
            do {
                _ = try SequenceText.parse(lines.joined(separator: "\n"))
                Issue.record("song.song with line \(line) '\(replacement)' parsed")
                return ""
            } catch {
                return "song.song:\(error)"
            }
        }
        let said = [
            try parserSays(line: 12, "  3:3   H4 1/4"),
            try parserSays(line: 4, "  1:5   G4 1/4"),
            try parserSays(line: 7, "  2:1   kick 1/2"),
        ]
        let errors = try #require(try Self.blocks().last)
        #expect(errors.lines == said)
    }

    /// What the page says each song in sequences/ shows.
    @Test func sequenceFormatExampleSongsHoldWhatThePageSays() throws {
        let page = try Repository.text(Self.page)
        func song(_ name: String) throws -> MIDIFile {
            #expect(page.contains("`\(name)`"), "the page names \(name)")
            return try SequenceText.parse(try Repository.text("sequences/\(name)"))
        }
        func events(_ file: MIDIFile) -> [TrackEvent.Kind] { file.tracks.flatMap { $0.events.map(\.kind) } }
        func messages(_ file: MIDIFile) -> [MIDIMessage] {
            events(file).compactMap { if case .midi(let message) = $0 { message } else { nil } }
        }
        func metas(_ file: MIDIFile) -> [MetaEvent] {
            events(file).compactMap { if case .meta(let meta) = $0 { meta } else { nil } }
        }
        func times(_ file: MIDIFile) -> [String] {
            metas(file).compactMap {
                if case .timeSignature(let n, let d, _, _) = $0 { "\(n)/\(1 << d)" } else { nil }
            }
        }

        // c-major-scale: the notes of C major.
        let scale = try song("c-major-scale.song")
        let pitchClasses = Set(messages(scale).compactMap { if case .noteOn(_, let note, _) = $0 { note % 12 } else { nil } })
        #expect(pitchClasses == [0, 2, 4, 5, 7, 9, 11])

        // little-song: drums, bass, chords, melody, a tempo change and 4/4 → 3/4.
        let little = try song("little-song.song")
        #expect(little.tracks.compactMap(\.name) == ["Little Song", "Drums", "Bass", "Chords", "Melody"])
        #expect(metas(little).filter { if case .tempo = $0 { true } else { false } }.count == 2)
        #expect(times(little) == ["4/4", "3/4"])

        // waltz-in-six-eight: 6/8, 9/8, a key change and `raw` bytes.
        let waltzText = try Repository.text("sequences/waltz-in-six-eight.song")
        let waltz = try song("waltz-in-six-eight.song")
        #expect(times(waltz) == ["6/8", "9/8"])
        #expect(metas(waltz).filter { if case .keySignature = $0 { true } else { false } }.count == 2)
        #expect(waltzText.contains(" raw b0 7b 00"))
        #expect(messages(waltz).contains(.controlChange(channel: 0, controller: 123, value: 0)), "the raw line's message")

        // expression: SysEx, CCs, program changes, pitch bend, aftertouch, lyrics.
        let expression = try song("expression.song")
        #expect(events(expression).contains { if case .sysEx = $0 { true } else { false } })
        let kinds = Set(messages(expression).map { message -> String in
            switch message {
            case .controlChange: "cc"
            case .programChange: "program"
            case .pitchBend: "bend"
            case .channelPressure, .polyPressure: "aftertouch"
            default: "other"
            }
        })
        #expect(kinds.isSuperset(of: ["cc", "program", "bend", "aftertouch"]))
        #expect(metas(expression).contains { if case .lyric = $0 { true } else { false } })
    }
}
