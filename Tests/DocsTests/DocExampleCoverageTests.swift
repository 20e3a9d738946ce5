import TestSupport
import Foundation
import Testing

/// Every code block in `docs/` and the README is claimed by the test that runs it.
///
/// The line before each fenced block names that test:
///
///     <!-- tested-by: Tests/MidihubCLITests/DocCommandTests.swift sequenceFormatExamplesRun -->
///
/// (a path from the repository root and a name that file contains: a test function or a
/// VM test's step), or, for a block that is a grammar rather than something to run:
///
///     <!-- grammar -->
///
/// This suite checks that no block is left unclaimed and that each named test exists; the
/// named tests do the running. `swift test --filter DocExampleCoverage` lists every block
/// and its test in the log.
@Suite struct DocExampleCoverageTests {
    @Test func everyBlockNamesTheTestThatRunsIt() throws {
        var report: [String] = []
        for document in try Repository.documents() {
            let blocks = try Repository.blocks(in: document)
            for block in blocks {
                guard let marker = block.marker else {
                    Issue.record("\(block): a code block without '<!-- tested-by: PATH NAME -->' on the line before it")
                    continue
                }
                if marker == "grammar" {
                    report.append("\(block)  grammar")
                    continue
                }
                guard marker.hasPrefix("tested-by:") else {
                    Issue.record("\(block): unknown marker '\(marker)' (fix: 'tested-by: PATH NAME' or 'grammar')")
                    continue
                }
                let words = marker.dropFirst("tested-by:".count).split(separator: " ").map(String.init)
                guard let path = words.first else {
                    Issue.record("\(block): 'tested-by:' names no test file")
                    continue
                }
                let url = Repository.root.appendingPathComponent(path)
                guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                    Issue.record("\(block): the test file '\(path)' does not exist")
                    continue
                }
                for name in words.dropFirst() where !text.contains(name) {
                    Issue.record("\(block): '\(path)' has no '\(name)'")
                }
                report.append("\(block)  \(words.joined(separator: " "))")
            }
        }
        print("doc examples and their tests:\n" + report.joined(separator: "\n"))
    }
}
