import Foundation
import Testing

/// Files that carry terminal control characters or huge tokens: the one-line error escapes
/// them and stays short (README: errors).
@Suite struct HostileInputTests {
    @Test func aSongWithControlCharactersAndAHugeTokenGetsOneShortEscapedLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("evil.song")
        let token = "\u{1B}]0;owned\u{07}\u{1B}[2J" + String(repeating: "Z", count: 200_000) + "\u{00}"
        try Data("ppq 480\ntrack \"T\" channel 1\n  1:1 \(token)\n".utf8).write(to: song)
        let result = try MidihubBinary.run(["info", song.path])
        #expect(result.status == 2, "\(result.standardError.prefix(300))")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 1)
        let line = String(lines.first ?? "")
        #expect(line.hasPrefix("midihub: ") && line.count <= 600, "\(line.count) characters")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "no raw control character")
        #expect(line.contains(#"\e]0;owned\a\e[2J"#), "\(line.prefix(200))")
    }

    /// A 37-byte file whose one delta time is the largest a MIDI file can hold (77 hours at
    /// 120 BPM): render refuses before writing a byte, where it used to fill 4 GB first.
    @Test func aRenderLongerThanAWAVCanHoldIsRefusedBeforeItStarts() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-long-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let track: [UInt8] = [0x00, 0x90, 60, 100, 0xFF, 0xFF, 0xFF, 0x7F, 0x80, 60, 0, 0x00, 0xFF, 0x2F, 0x00]
        let file: [UInt8] = Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8)
            + [0, 0, 0, UInt8(track.count)] + track
        let song = folder.appendingPathComponent("long.mid"), wav = folder.appendingPathComponent("long.wav")
        try Data(file).write(to: song)
        let result = try MidihubBinary.run(["render", song.path, "-o", wav.path])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("midihub: \(song.path) lasts 4660:"), "\(result.standardError)")
        #expect(result.standardError.contains("a WAV file holds at most 372:"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["long.mid"], "nothing written")
    }
}
