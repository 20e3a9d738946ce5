import Foundation
import Glibc
import MIDICore
import Testing

/// Issue 28: a SoundFont cut short on disk while `midihub render --soundfont` plays it. The
/// process is not killed by SIGBUS (the pages the file lost read as silence), and the render
/// that silence spoiled is not written: exit 1, one line naming the font and the output,
/// no WAV and no temporary file left.
@Suite struct RenderFontChangeTests {
    /// Twenty minutes of a piano note every quarter second: long enough that the render is
    /// still running when the font is cut.
    private func longSong() -> MIDIFile {
        var events: [TrackEvent] = []
        for index in UInt64(0)..<4800 {
            let key = UInt8(48 + index % 24)
            events.append(TrackEvent(tick: Tick(index * 240), .midi(.noteOn(channel: 0, note: key, velocity: 100))))
            events.append(TrackEvent(tick: Tick(index * 240 + 200), .midi(.noteOff(channel: 0, note: key, velocity: 0))))
        }
        return MIDIFile(format: 0, division: .ticksPerQuarter(480), tracks: [MIDITrack(events: events)])
    }

    @Test func aFontCutShortWhileRenderingLeavesNoWAVAndOneLine() throws {
        let installed = "/usr/share/sounds/sf2/TimGM6mb.sf2"
        try #require(FileManager.default.fileExists(atPath: installed), "no \(installed) (fix: scripts/install-deps installs timgm6mb-soundfont)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-fontcut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let font = folder.appendingPathComponent("font.sf2").path, song = folder.appendingPathComponent("long.mid").path
        let output = folder.appendingPathComponent("out.wav").path
        try FileManager.default.copyItem(atPath: installed, toPath: font)
        try Data(longSong().smfBytes()).write(to: URL(fileURLWithPath: song))

        // A second into the render, the font loses all but its first 256 KiB (its samples).
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { _ = truncate(font, 256 * 1024) }
        let result = try MidihubBinary.run(["render", "--soundfont", font, song, "-o", output])

        #expect(result.status == 1, "stderr: \(result.standardError)")
        #expect(result.standardError == "midihub: the SoundFont \(font) changed on disk while rendering; \(output) was not written "
            + "(fix: render again once the font file stays as it is)\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["font.sf2", "long.mid"],
                "a temporary file was left")
    }
}
