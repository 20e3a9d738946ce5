import Foundation
import Glibc
import Testing
@testable import Plugins

/// `state:mapPath`, `makePath` and `freePath` as a running plugin calls them: a path in the
/// instance's folder abstracted as relative to it and back, any other kept whole, a made
/// path's folder created.
@Suite struct StatePathsTests {
    @Test func pathsMapMakeAndFreeAsAPluginCallsThem() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-paths-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let paths = StatePaths(folder: folder)
        func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String? {
            defer { paths.freePath.pointee.free_path(paths.freePath.pointee.handle, pointer) }
            return pointer.map { String(cString: $0) }
        }
        let map = paths.mapPath.pointee, make = paths.makePath.pointee
        #expect(text(map.abstract_path(map.handle, folder + "/takes/one.wav")) == "takes/one.wav")
        #expect(text(map.abstract_path(map.handle, "/usr/share/sounds/kick.wav")) == "/usr/share/sounds/kick.wav")
        #expect(text(map.absolute_path(map.handle, "takes/one.wav")) == folder + "/takes/one.wav")
        #expect(text(map.absolute_path(map.handle, "/usr/share/sounds/kick.wav")) == "/usr/share/sounds/kick.wav")
        #expect(text(make.path(make.handle, "takes/two.wav")) == folder + "/takes/two.wav")
        var isFolder: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: folder + "/takes", isDirectory: &isFolder) && isFolder.boolValue)
    }
}
