import Foundation
import Glibc
import SoundFont
import Testing

/// A SoundFont replaced in place or truncated while it plays: the mapping's pages past the
/// file's new end would raise SIGBUS and kill the process; they read as silence instead,
/// and the font says so. The file is truncated for real under a live mapping.
@Suite struct SoundFontFileChangeTests {
    private func writeFont(frames: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-font-\(UUID().uuidString).sf2").path
        try Data(MinimalSoundFont(frames: frames).bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func frames(of font: SoundFont) -> [Float] {
        let sample = font.samples[0]
        return (sample.start..<sample.end).map { font.sampleData.frame(at: $0) }
    }

    @Test func aFontTruncatedUnderItsMappingReadsSilenceInsteadOfCrashing() throws {
        let path = try writeFont(frames: 120)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let font = try SoundFont.open(path)
        #expect(frames(of: font).contains { $0 != 0 })
        #expect(!font.sampleData.fileChanged)
        #expect(truncate(path, 0) == 0)
        #expect(frames(of: font).allSatisfy { $0 == 0 }, "past the file's new end: silence")
        #expect(font.sampleData.fileChanged)
        #expect(font.presets.map(\.name) == ["Test Piano"], "what was read before stays")
    }

    @Test func anotherFontPlaysOnUntouched() throws {
        let (shrinking, steady) = (try writeFont(frames: 100), try writeFont(frames: 100))
        defer { for path in [shrinking, steady] { try? FileManager.default.removeItem(atPath: path) } }
        let (gone, kept) = (try SoundFont.open(shrinking), try SoundFont.open(steady))
        let expected = frames(of: kept)
        #expect(truncate(shrinking, 0) == 0)
        #expect(frames(of: gone).allSatisfy { $0 == 0 })
        #expect(frames(of: kept) == expected)
        #expect(gone.sampleData.fileChanged && !kept.sampleData.fileChanged)
    }

    @Test func aFontReadFromMemoryNeverChanges() throws {
        let font = try SoundFont(bytes: MinimalSoundFont(frames: 50).bytes, file: "memory.sf2")
        #expect(!font.sampleData.fileChanged)
    }
}
