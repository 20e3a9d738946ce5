import Foundation
import Testing
import TestSupport

/// The README's two commands. `scripts/test` is what CI runs (.ci/run); `scripts/setup`
/// runs here as written but for the release build, which it skips when `MIDIHUB` names a
/// binary: with this build's `midihub` it installs (already there), shows the song and,
/// on a machine without a sound card, renders it to a WAV file.
@Suite struct ReadmeSetupTests {
    @Test func theReadmeOpensWithSetupAndTest() throws {
        let block = try #require(try Repository.blocks(in: "README.md").first)
        #expect(block.lines.map { $0.split(separator: " ").first.map(String.init) } == ["scripts/setup", "scripts/test"])
        let ci = try Repository.text(".ci/run")
        #expect(ci.contains("scripts/test\" \"$@\""), ".ci/run runs scripts/test")
    }

    @Test func setupRunsTheMainJob() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-setup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = Repository.root.appendingPathComponent("scripts/setup")
        process.environment = ProcessInfo.processInfo.environment.merging(
            ["MIDIHUB": MidihubBinary.path, "TMPDIR": scratch.path]) { $1 }
        let log = scratch.appendingPathComponent("setup.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: log)
        process.standardError = process.standardOutput
        try process.run()
        try waitForExit(of: process, deadline: 300, message: "scripts/setup did not end")
        let output = try String(contentsOf: log, encoding: .utf8)
        #expect(process.terminationStatus == 0, "\(output)")
        #expect(output.contains("duration:  23.500 s"), "it shows the song: \(output)")
        let playbackDevices = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/snd")) ?? [])
            .filter { $0.hasPrefix("pcmC") && $0.hasSuffix("p") }
        if playbackDevices.isEmpty {
            let wav = try Data(contentsOf: scratch.appendingPathComponent("little-song.wav"))
            #expect(wav.count > 48_000 * 4 * 23, "23.5 s of 16-bit stereo at 48 kHz")
            #expect(output.contains("rendering to"))
        }
    }
}
