import TestSupport
import Testing

/// docs/plugins.md's blocks as the tests that run them find them, and its example patches
/// against the files in patches/.
enum PluginDocBlocks {
    /// The one block of the docs marked as tested by `test` of `testFile`.
    static func block(_ test: String, of testFile: String) throws -> DocumentBlock {
        let blocks = try Repository.blocks(testedBy: testFile).filter { $0.marker?.hasSuffix(" " + test) == true }
        try #require(blocks.count == 1, "docs/plugins.md has no block marked for \(test)")
        return blocks[0]
    }

    /// Expects `block` to show the patch file `path`'s nodes and routes as they are.
    static func expect(_ block: DocumentBlock, isPatch path: String) throws {
        let file = try Repository.text(path)
        #expect(file.contains(block.text), "\(block) shows \(path)'s nodes and routes as they are")
    }
}
