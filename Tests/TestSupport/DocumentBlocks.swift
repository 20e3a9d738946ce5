import Foundation

/// The fenced code blocks of a document in the repository, for the tests that run the
/// examples of `docs/` against the real code.
public struct DocumentBlock: Sendable, CustomStringConvertible {
    /// The info string after the opening fence (`yaml`, `rules`, or empty).
    public let language: String
    /// The lines between the fences, each ending in a newline.
    public let text: String
    /// The 1-based line of the opening fence.
    public let line: Int
    public let document: String

    /// The block's lines without their newlines.
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    public var description: String { "\(document):\(line)" }
}

public enum Repository {
    /// The repository's root folder, found from this file's path.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of `path` (from the repository root, e.g. `docs/rules.md`).
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every fenced block of `document` (e.g. `docs/rules.md`), in order.
    public static func blocks(in document: String) throws -> [DocumentBlock] {
        var blocks: [DocumentBlock] = []
        var open: (language: String, line: Int, body: [String])?
        for (index, line) in try text(document).components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let current = open {
                    blocks.append(DocumentBlock(language: current.language,
                                                text: current.body.map { $0 + "\n" }.joined(),
                                                line: current.line, document: document))
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces), index + 1, [])
                }
            } else {
                open?.body.append(line)
            }
        }
        return blocks
    }
}
