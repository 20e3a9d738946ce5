import Foundation
import Glibc
import Testing

@testable import Daemon

/// The patch file watch: an edit in place and a save by rename are seen once; nothing else is.
@Suite struct PatchFileWatchTests {
    @Test func editsInPlaceAndByRenameAreSeenOnce() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let patch = folder.appendingPathComponent("p.yaml")
        try "nodes: {}\n".write(to: patch, atomically: false, encoding: .utf8)
        let watch = PatchFileWatch(path: patch.path)
        #expect(watch.changedPath() == nil)

        try "nodes: { }\n".write(to: patch, atomically: false, encoding: .utf8)  // in place, one byte longer
        #expect(watch.changedPath() == patch.path)
        #expect(watch.changedPath() == nil)

        let saved = folder.appendingPathComponent("p.yaml.new")
        try "nodes: { }\n".write(to: saved, atomically: false, encoding: .utf8)
        #expect(rename(saved.path, patch.path) == 0)  // by rename, as editors save: a new inode
        #expect(watch.changedPath() == patch.path)

        try FileManager.default.removeItem(at: patch)
        #expect(watch.changedPath() == nil)  // gone (a rename in progress): nothing to read
        watch.watch(nil)
        #expect(watch.currentPath() == nil)
    }
}
