import Foundation
import SoundFont
import Testing
import TestSupport

/// The reader on Debian's FluidR3_GM.sf2 (fluid-soundfont-gm) and MuseScore's SF3 font
/// (musescore-general-soundfont-small, Vorbis samples), both installed by
/// scripts/install-deps, against fluidsynth's own reading of them.
@Suite struct SoundFontReaderTests {
    static let fluidR3 = "/usr/share/sounds/sf2/FluidR3_GM.sf2"
    static let museScore = "/usr/share/sounds/sf3/MuseScore_General_Lite.sf3"

    /// fluidsynth's `inst 1`: one line `BBB-PPP Name` per preset.
    static func fluidsynthPresetLines(_ path: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/fluidsynth")
        process.arguments = ["-n", "-q", "-a", "file", "-o", "audio.file.name=/dev/null", path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data("inst 1\nquit\n".utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        try waitForExit(of: process, message: "fluidsynth did not quit")
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.first?.isNumber == true }.map(String.init)
    }

    @Test(arguments: [(fluidR3, 2), (museScore, 3)])
    func presetsAreTheOnesFluidsynthLists(path: String, major: Int) throws {
        let font = try SoundFont.open(path)
        let ours = font.presets.map { String(format: "%03d-%03d %@", $0.bank, $0.program, $0.name) }.sorted()
        let theirs = try Self.fluidsynthPresetLines(path).sorted()
        #expect(theirs.count > 100, "fluidsynth listed \(theirs.count) presets")
        #expect(ours == theirs)
        #expect(font.version.major == major)
    }

    /// Every zone leads to an instrument and a sample whose frames lie inside the data,
    /// and the General MIDI piano (bank 0, program 0) is playable: its samples hold sound.
    @Test(arguments: [fluidR3, museScore])
    func everyZoneLeadsToSamplesInsideTheData(path: String) throws {
        let font = try SoundFont.open(path)
        for preset in font.presets {
            for zone in preset.zones {
                guard let instrument = zone.target else { continue }
                for instrumentZone in font.instruments[instrument].zones {
                    guard let sample = instrumentZone.target.map({ font.samples[$0] }) else { continue }
                    #expect(sample.isROM || sample.end <= font.sampleData.frameCount, "\(preset.name): \(sample.name)")
                    #expect(sample.loopStart >= sample.start && sample.loopEnd <= sample.end)
                }
            }
        }
        let piano = try #require(font.preset(bank: 0, program: 0))
        let sample = try #require(piano.zones.compactMap(\.target).first.flatMap { font.instruments[$0].zones.compactMap(\.target).first })
        let header = font.samples[sample]
        let peak = (header.start..<header.end).reduce(Float(0)) { max($0, abs(font.sampleData.frame(at: $1))) }
        #expect(peak > 0.1, "the piano's first sample peaks at \(peak)")
    }

    /// A font of version 2.04 with an `sm24` chunk has 24-bit frames: each word with its low
    /// byte below (the minimal font's words are n × 256 - 8192). Before 2.04, or with an
    /// `sm24` that is not one byte a frame, the chunk is ignored (SF2.04, FluidSynth).
    @Test func sm24AddsEachFramesLowByteFromVersion2_04() throws {
        let lows = (0..<64).map { UInt8(($0 * 37) & 0xFF) }
        var font = MinimalSoundFont(version: (2, 4))
        font.sm24 = lows
        let wide = try SoundFont(bytes: font.bytes, file: "wide.sf2")
        #expect(wide.sampleData.has24Bits)
        for index in [0, 1, 31, 63] {
            let expected = Float((index * 256 - 8192) * 256 + Int(lows[index])) / 8_388_608
            #expect(wide.sampleData.frame(at: index) == expected)
        }
        var old = font
        old.version = (2, 1)
        var short = font
        short.sm24 = Array(lows.prefix(40))
        for ignored in [old, short] {
            let read = try SoundFont(bytes: ignored.bytes, file: "narrow.sf2")
            #expect(!read.sampleData.has24Bits)
            #expect(read.sampleData.frame(at: 63) == Float(63 * 256 - 8192) / 32_768)
        }
    }
}
