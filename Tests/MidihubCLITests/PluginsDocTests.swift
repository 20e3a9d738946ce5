import TestSupport
import Foundation
import Testing

/// docs/plugins.md's shell line comparing `midihub plugins --json` with `lv2ls`, run as
/// written with the real binary first on PATH: it prints what the doc shows.
@Suite struct PluginsDocTests {
    @Test func theListingHasLv2lsURIs() throws {
        let blocks = try Repository.blocks(testedBy: "Tests/MidihubCLITests/PluginsDocTests.swift")
        try #require(blocks.count == 1, "docs/plugins.md's lv2ls block is not marked for this test")
        let lines = blocks[0].lines.filter { !$0.isEmpty }
        try #require(lines.count == 2)
        let binaryFolder = URL(fileURLWithPath: MidihubBinary.path).deletingLastPathComponent().path
        let run = try ShellScript.run(lines[0], in: Repository.root,
                                      environment: ["PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")])
        #expect(run.status == 0, "\(blocks[0]): \(run.output)")
        #expect(run.output == lines[1] + "\n")
    }
}
