import Foundation

/// The fenced code blocks of a document in the repository, for the tests that run the
/// examples of `docs/` and the README against the real code. Each carries the marker on
/// the line before its fence (`<!-- tested-by: PATH NAME -->`, see DocExampleCoverageTests).
public struct DocumentBlock: Sendable, CustomStringConvertible {
    /// The info string after the opening fence (`yaml`, `rules`, or empty).
    public let language: String
    /// The lines between the fences, each ending in a newline.
    public let text: String
    /// The 1-based line of the opening fence.
    public let line: Int
    public let document: String
    /// The comment on the line before the opening fence, without `<!--` and `-->`, if any.
    public let marker: String?

    /// The block's lines without their newlines.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    public var description: String { "\(document):\(line)" }

    /// Whether the marker names `path` (from the repository root) as the file of the test
    /// that runs the block.
    public func isTested(by path: String) -> Bool {
        testFile == path
    }

    /// The test file (from the repository root) that the `tested-by:` marker names, if any.
    public var testFile: String? {
        guard let marker, marker.hasPrefix("tested-by:") else { return nil }
        return marker.dropFirst("tested-by:".count).split(separator: " ").first.map(String.init)
    }
}

public enum Repository {
    /// The repository's root folder, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of `path` (from the repository root, e.g. `docs/rules.md`).
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// README.md and every docs/*.md, by path from the root.
    public static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + docs
    }

    /// Every fenced block of `document` (e.g. `docs/rules.md`), in order.
    public static func blocks(in document: String) throws -> [DocumentBlock] {
        var blocks: [DocumentBlock] = []
        var open: (language: String, line: Int, marker: String?, body: [String])?
        var previous = ""
        for (index, line) in try text(document).components(separatedBy: "\n").enumerated() {
            defer { previous = line.trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("```") {
                if let current = open {
                    blocks.append(DocumentBlock(language: current.language,
                                                text: current.body.map { $0 + "\n" }.joined(),
                                                line: current.line, document: document, marker: current.marker))
                    open = nil
                } else {
                    let marker = previous.hasPrefix("<!--") && previous.hasSuffix("-->")
                        ? String(previous.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces) : nil
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, marker, [])
                }
            } else {
                open?.body.append(line)
            }
        }
        return blocks
    }

    /// Every block, in every document, whose marker names `path` (a test file from the root).
    public static func blocks(testedBy path: String) throws -> [DocumentBlock] {
        try documents().flatMap { try blocks(in: $0) }.filter { $0.isTested(by: path) }
    }
}
