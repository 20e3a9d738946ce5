import Foundation

/// The fenced code blocks of the repository's markdown (README.md, docs/*.md), for the
/// tests that run them: each block with its language, text, line and the marker on the
/// line before it (`<!-- tested-by: PATH NAME -->`, see DocExampleCoverageTests).
public struct MarkdownBlock: CustomStringConvertible, Sendable {
    /// The document's path from the repository root, e.g. `docs/live.md`.
    public var file: String
    /// The line of the opening fence, from 1.
    public var line: Int
    /// What follows the opening fence: `sh`, `json`, `yaml`, or empty.
    public var language: String
    /// The lines between the fences.
    public var lines: [String]
    /// The comment on the line before the fence, without `<!--` and `-->`, if any.
    public var marker: String?

    public var text: String { lines.joined(separator: "\n") + "\n" }
    public var description: String { "\(file):\(line)" }

    /// Whether the marker names `path` as the file of the test that runs the block.
    public func isTested(by path: String) -> Bool {
        guard let marker, marker.hasPrefix("tested-by:") else { return false }
        return marker.dropFirst("tested-by:".count).split(separator: " ").first.map(String.init) == path
    }
}

public enum MarkdownBlocks {
    /// The repository root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// README.md and every docs/*.md, by path from the root.
    public static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
        return ["README.md"] + docs
    }

    /// Every fenced block of `file` (a path from the root).
    public static func blocks(in file: String) throws -> [MarkdownBlock] {
        let lines = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            .components(separatedBy: "\n")
        var blocks: [MarkdownBlock] = []
        var open: MarkdownBlock?
        for (index, line) in lines.enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    open = nil
                } else {
                    block.lines.append(line)
                    open = block
                }
            } else if line.hasPrefix("```") {
                let previous = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                let marker = previous.hasPrefix("<!--") && previous.hasSuffix("-->")
                    ? String(previous.dropFirst(4).dropLast(3)).trimmingCharacters(in: .whitespaces) : nil
                open = MarkdownBlock(file: file, line: index + 1, language: String(line.dropFirst(3)),
                                     lines: [], marker: marker)
            }
        }
        return blocks
    }

    /// Every block, in every document, whose marker names `path` (a test file from the root).
    public static func blocks(testedBy path: String) throws -> [MarkdownBlock] {
        try documents().flatMap { try blocks(in: $0) }.filter { $0.isTested(by: path) }
    }
}
