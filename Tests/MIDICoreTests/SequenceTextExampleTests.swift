import Foundation
import MIDICore
import Testing

/// The songs in `sequences/`: each `.song` parses to exactly what its committed `.mid` holds,
/// and both survive a text round trip.
@Suite struct SequenceTextExampleTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sequences")

    static let songs: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".song") }.sorted()

    @Test func examplesExist() {
        #expect(Self.songs.count >= 3)
    }

    @Test(arguments: songs)
    func songMatchesItsMIDIFile(name: String) throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8)
        let song = try SequenceText.parse(text)
        let midiURL = Self.folder.appendingPathComponent(String(name.dropLast(5)) + ".mid")
        let midi = try MIDIFile(smf: Array(try Data(contentsOf: midiURL)))
        #expect(song == midi)
        #expect(try SequenceText.parse(SequenceText.render(midi)) == midi)
        #expect(song.tracks.contains { $0.events.contains { if case .midi(.noteOn) = $0.kind { true } else { false } } })
    }
}
