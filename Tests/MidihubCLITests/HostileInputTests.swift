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
}
