import Foundation
import SoundFont
import Testing
import TestSupport

/// SF3: samples compressed with Ogg Vorbis (encoded here by `sox`, decoded by midihub with
/// libvorbisfile), in a font built field by field; the real SF3 fonts are read in
/// `SoundFontReaderTests`.
@Suite struct SF3Tests {
    static let frames = 4410

    /// 0.1 s of a 441 Hz sine at 44.1 kHz (100 frames per period), half scale, as Ogg Vorbis.
    static func sineVorbis() throws -> [UInt8] {
        let ogg = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-sf3-\(UUID().uuidString).ogg")
        defer { try? FileManager.default.removeItem(at: ogg) }
        let result = try ShellScript.run("sox -n -r 44100 -c 1 '\(ogg.path)' synth 0.1 sine 441 vol 0.5",
                                         in: FileManager.default.temporaryDirectory)
        #expect(result.status == 0, "sox failed: \(result.output)")
        return [UInt8](try Data(contentsOf: ogg))
    }

    @Test func aVorbisSampleIsDecodedWithItsLoopFromItsOwnStart() throws {
        let vorbis = try Self.sineVorbis()
        let font = try SoundFont(bytes: MinimalSoundFont(frames: Self.frames, vorbis: vorbis).bytes, file: "sine.sf3")
        #expect(font.version.major == 3)
        let sample = try #require(font.samples.first)
        #expect(sample.start == 0)
        #expect(sample.end == Self.frames, "decoded \(sample.end) frames")
        #expect((sample.loopStart, sample.loopEnd) == (8, Self.frames - 8))
        #expect(font.sampleData.frameCount == Self.frames + 46, "46 silent frames after the sample, as in SF2")
        // The sine comes back: every period of 100 frames peaks near ±0.5 (Vorbis is lossy).
        let middle = (1000..<1100).map { font.sampleData.frame(at: $0) }
        #expect(abs((middle.max() ?? 0) - 0.5) < 0.02 && abs((middle.min() ?? 0) + 0.5) < 0.02, "\(middle.max() ?? 0) \(middle.min() ?? 0)")
        #expect(abs(font.sampleData.frame(at: 1025) - font.sampleData.frame(at: 1125)) < 0.02, "not periodic in 100 frames")
    }

    @Test func aDamagedStreamIsRefusedNamingTheSample() throws {
        var vorbis = try Self.sineVorbis()
        vorbis.replaceSubrange(0..<4, with: Array("Junk".utf8))  // the first page's "OggS"
        let error = try #require(throws: SoundFontError.self) {
            try SoundFont(bytes: MinimalSoundFont(frames: Self.frames, vorbis: vorbis).bytes, file: "bad.sf3")
        }
        #expect(error.chunk == "sdta/smpl")
        #expect(error.problem == "sample 0 ('Test Sample'): it is not Ogg Vorbis data", "\(error)")
        #expect(!error.description.contains("\n"))
    }
}
