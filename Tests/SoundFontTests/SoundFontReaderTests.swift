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
}
