import TestSupport
import Foundation
import Testing

/// The `swift` blocks of the docs are compiled and run by the test that claims them.
///
/// A block marked `<!-- tested-by: PATH NAME -->` must appear in the Swift file PATH line
/// for line, in order (each non-blank line with its leading and trailing whitespace
/// trimmed; other lines may come between, e.g. the definitions of a sketch's free names).
/// PATH is a test file, so the copy compiles against the real types and runs when that
/// test runs: a snippet whose API changed breaks the build of the tests until both agree.
@Suite struct SwiftSnippetTests {
    @Test func everySwiftBlockIsInTheTestThatClaimsIt() throws {
        var checked = 0
        for document in try Repository.documents() {
            for block in try Repository.blocks(in: document) where block.language == "swift" {
                guard let path = block.testFile else { continue }
                guard path.hasPrefix("Tests/"), path.hasSuffix(".swift") else {
                    Issue.record("\(block): a swift block must be claimed by a Swift test file, not '\(path)'")
                    continue
                }
                let file = try Repository.text(path)
                if let missing = Self.firstMissingLine(of: block.lines, in: file) {
                    Issue.record("\(block): '\(path)' lacks, in order, the line '\(missing)'")
                }
                checked += 1
            }
        }
        print("swift blocks found verbatim in their tests: \(checked)")
    }

    /// The first non-blank line of `snippet` that `file` does not have after the lines
    /// before it (all compared trimmed), or nil when every one is there in order.
    static func firstMissingLine(of snippet: [String], in file: String) -> String? {
        var remaining = file.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }[...]
        for line in snippet.map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty {
            guard let index = remaining.firstIndex(of: line) else { return line }
            remaining = remaining[(index + 1)...]
        }
        return nil
    }

    @Test func aLineOutOfOrderOrMissingIsFound() {
        let file = "func f() {\n    let a = 1\n    let b = 2\n}\n"
        #expect(Self.firstMissingLine(of: ["let a = 1", "  let b = 2"], in: file) == nil)
        #expect(Self.firstMissingLine(of: ["let b = 2", "let a = 1"], in: file) == "let a = 1")
        #expect(Self.firstMissingLine(of: ["let c = 3"], in: file) == "let c = 3")
    }
}
