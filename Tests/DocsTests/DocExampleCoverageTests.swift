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
    /// Documents whose examples are not yet all run by a test (issue 8, part 3, still open
    /// for them). Each block in them that has no marker is listed in the log, not failed;
    /// once a document is fully marked, this test fails until the document leaves the list,
    /// so the list can only shrink. Never add to it.
    static let backlog: Set<String> = [
        "docs/control-protocol.md", "docs/fuzzing.md",
    ]

    @Test func everyBlockNamesTheTestThatRunsIt() throws {
        var report: [String] = []
        for document in try Repository.documents() {
            let blocks = try Repository.blocks(in: document)
            if Self.backlog.contains(document) && blocks.allSatisfy({ $0.marker != nil }) {
                Issue.record("\(document): every block is marked now (fix: remove it from DocExampleCoverageTests.backlog)")
            }
            for block in blocks {
                guard let marker = block.marker else {
                    if Self.backlog.contains(document) {
                        report.append("\(block)  NOT YET TESTED (backlog)")
                    } else {
                        Issue.record("\(block): a code block without '<!-- tested-by: PATH NAME -->' on the line before it")
                    }
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
