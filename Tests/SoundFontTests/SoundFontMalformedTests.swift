import SoundFont
import Testing

/// Broken fonts are refused with one line naming the chunk, the byte offset and the fix;
/// nothing traps. Each case breaks one field of a valid minimal font.
@Suite struct SoundFontMalformedTests {
    static func error(_ font: MinimalSoundFont) -> SoundFontError? {
        do {
            _ = try SoundFont(bytes: font.bytes, file: "bad.sf2")
            return nil
        } catch {
            return error
        }
    }

    @Test func theMinimalFontReads() throws {
        let font = try SoundFont(bytes: MinimalSoundFont().bytes, file: "ok.sf2")
        #expect(font.name == "Minimal")
        #expect(font.presets.map(\.name) == ["Test Piano"])
        #expect(font.instruments.first?.zones.first?.target == 0)
        #expect(font.instruments.first?.zones.first?.generators == [SoundFontGenerator(kind: 43, amount: 0x7F00)])
        #expect(font.samples.first.map { [$0.start, $0.end, $0.loopStart, $0.loopEnd] } == [0, 64, 8, 56])
        #expect(font.sampleData.frameCount == 64)
        #expect(font.sampleData.frame(at: 32) == 0)
    }

    @Test(arguments: [
        (MinimalSoundFont(terminalPresetBag: 5), "pdta/phdr", "bag indices 0…5 go backwards or past the 1 zones"),
        (MinimalSoundFont(instrumentIndex: 3), "pdta/pgen", "names instrument 3 of 1"),
        (MinimalSoundFont(sampleEnd: 100), "pdta/shdr", "sample 0 spans frames 0…100, the sample data has 64"),
        (MinimalSoundFont(pbagExtra: [1, 2]), "pdta/pbag", "size 10 is not a multiple of 4"),
    ])
    func oneBrokenFieldIsNamed(font: MinimalSoundFont, chunk: String, problem: String) throws {
        let error = try #require(Self.error(font))
        #expect(error.chunk == chunk)
        #expect(error.problem.contains(problem), "\(error)")
        #expect(error.description.hasPrefix("bad.sf2: \(chunk) at byte \(error.offset): "))
        #expect(!error.description.contains("\n"))
    }

    /// Found by FuzzSoundFont: a RIFF size below 4 made an empty range run backwards.
    @Test func aRIFFSizeBelowFourIsRefused() throws {
        var bytes = MinimalSoundFont().bytes
        bytes[4...7] = [2, 0, 0, 0]
        let error = try #require(throws: SoundFontError.self) { try SoundFont(bytes: bytes, file: "bad.sf2") }
        #expect(error.chunk == "LIST INFO" && error.problem == "the file has no 'INFO' list")
    }

    /// Found by FuzzSoundFont: a sample named with a newline split the error naming it
    /// over two lines. Control characters in names read as "?".
    @Test func aNameWithControlCharactersStaysOnOneLine() throws {
        var bytes = MinimalSoundFont().bytes
        let name = Array("Test Piano".utf8)
        let at = try #require((0...bytes.count - name.count).first { Array(bytes[$0..<$0 + name.count]) == name })
        bytes[at + 4] = 0x0A
        bytes[at + 5] = 0x1B
        let font = try SoundFont(bytes: bytes, file: "names.sf2")
        #expect(font.presets.map(\.name) == ["Test??iano"])
    }

    /// A few kilobytes of zones that multiply (1025 preset zones on an instrument of 512
    /// zones) would ask an instrument for gigabytes of regions: refused at reading.
    @Test func layersBeyondTheLimitAreRefused() throws {
        #expect(1025 * 512 > SoundFont.layerLimit && 1024 * 512 <= SoundFont.layerLimit)
        let refused = try #require(Self.error(MinimalSoundFont(presetZones: 1025, instrumentZones: 512)))
        #expect(refused.chunk == "pdta/phdr" && refused.problem.contains("more than \(SoundFont.layerLimit) instrument zones"),
                "\(refused)")
        let font = try SoundFont(bytes: MinimalSoundFont(presetZones: 1024, instrumentZones: 512).bytes, file: "many.sf2")
        #expect(font.presets[0].zones.count == 1024 && font.instruments[0].zones.count == 512)
    }

    /// Cut anywhere, the font is refused (never read short, never a trap).
    @Test func everyTruncationIsRefused() {
        let bytes = MinimalSoundFont().bytes
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(throws: SoundFontError.self, "cut at \(length)") {
                _ = try SoundFont(bytes: Array(bytes.prefix(length)), file: "cut.sf2")
            }
        }
    }
}
