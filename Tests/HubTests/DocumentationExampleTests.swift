import Foundation
import Testing
@testable import Hub

/// The code blocks of the docs are real: every `yaml` block of patch-format.md loads as a patch,
/// every `rules` block of rules.md parses.
@Suite struct DocumentationExampleTests {
    static func blocks(_ language: String, in document: String) throws -> [String] {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/\(document)").standardizedFileURL.path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return text.components(separatedBy: "```\(language)\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
    }

    @Test func patchFormatExamplesLoad() throws {
        let blocks = try Self.blocks("yaml", in: "patch-format.md")
        #expect(blocks.count == 2)
        for block in blocks {
            let patch = try Patch.parse(yaml: block, file: "patch-format.md", registry: GraphFixtures.registry)
            #expect(!patch.graph.nodes.isEmpty)
        }
    }

    @Test func ruleExamplesParse() throws {
        let blocks = try Self.blocks("rules", in: "rules.md")
        #expect(blocks.count == 1)
        #expect(try ConnectionRule.parseList(blocks[0]).count == 5)
        let yamlRules = try Self.blocks("yaml", in: "rules.md")
        #expect(try Patch.parse(yaml: yamlRules[0], file: "rules.md", registry: NodeRegistry()).rules.count == 2)
    }
}
