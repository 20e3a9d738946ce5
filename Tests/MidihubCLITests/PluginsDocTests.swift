import TestSupport
import Foundation
import Testing

/// docs/plugins.md's shell line comparing `midihub plugins --json` with `lv2ls`, its example
/// patch and its render through an LV2 instrument, each run as written with the real binary
/// first on PATH.
@Suite struct PluginsDocTests {
    static let testFile = "Tests/MidihubCLITests/PluginsDocTests.swift"

    /// The block of docs/plugins.md marked for `test`.
    static func block(_ test: String) throws -> DocumentBlock {
        try PluginDocBlocks.block(test, of: testFile)
    }

    static var path: String {
        URL(fileURLWithPath: MidihubBinary.path).deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    @Test func theListingHasLv2lsURIs() throws {
        let block = try Self.block("theListingHasLv2lsURIs")
        let lines = block.lines.filter { !$0.isEmpty }
        try #require(lines.count == 2)
        let run = try ShellScript.run(lines[0], in: Repository.root, environment: ["PATH": Self.path])
        #expect(run.status == 0, "\(block): \(run.output)")
        #expect(run.output == lines[1] + "\n")
    }

    @Test func theExamplePatchIsThePatchFile() throws {
        try PluginDocBlocks.expect(try Self.block("theExamplePatchIsThePatchFile"), isPatch: "patches/lv2-epiano.yaml")
    }

    @Test func aSongRendersThroughAnLV2Instrument() throws {
        let block = try Self.block("aSongRendersThroughAnLV2Instrument")
        let command = try #require(block.lines.first { $0.hasPrefix("midihub render ") })
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("plugins-doc-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createSymbolicLink(at: scratch.appendingPathComponent("sequences"),
                                                   withDestinationURL: Repository.root.appendingPathComponent("sequences"))
        let run = try ShellScript.run(command, in: scratch, environment: ["PATH": Self.path])
        #expect(run.status == 0, "\(block): \(run.output)")
        #expect(run.output.hasPrefix("wrote jx10.wav: "))
        // 16-bit stereo after a 44-byte header: JX10 plays the song's notes.
        let wav = try Data(contentsOf: scratch.appendingPathComponent("jx10.wav"))
        let samples = wav.dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let seconds = Double(samples.count / 2) / 48_000
        #expect(seconds > 10, "the song and its tail")
        let loud = samples.filter { abs(Int($0)) > 1000 }.count
        #expect(Double(loud) / Double(samples.count) > 0.1, "sounding through much of it, not silent")
    }
}
