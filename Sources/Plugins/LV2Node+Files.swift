import Foundation
import Hub
import RenderCore

/// The bounds of a file property's path: what one `patch:Set` may carry.
/// - Thread: any (constants).
enum PluginFileLimits {
    /// The largest `patch:Set` message, its path included.
    static let messageBytes = 4_352
    /// The longest path (bytes) a file property takes: Linux's `PATH_MAX`.
    static let pathBytes = 4_096
}

/// Setting a plugin's file properties (`PluginIdentity.files`: eg-sampler's sample) while it
/// plays: a `patch:Set` the plugin reads at the start of the next block, on its control
/// input, as a plugin UI would send it. The plugin loads the file in its own time (its
/// worker) and keeps it in its own state, which the daemon's state file then holds.
/// - Thread: control.
extension LV2Node {
    /// Sets the file property `name` to the file at `path` (absolute, existing).
    /// - Throws: `PluginRefusal`: no such property, no such file, a path too long, or a
    ///   plugin with no input for it or too many sets waiting.
    public func setFile(_ name: String, to path: String) throws(PluginRefusal) {
        let files = descriptor.plugin?.files ?? []
        guard let property = files.first(where: { $0.name == name }) else {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' has no file property '\(name)'",
                                fix: files.isEmpty ? "it takes no files" : "use \(files.map(\.name).joined(separator: ", "))")
        }
        guard path.hasPrefix("/"), path.utf8.count <= PluginFileLimits.pathBytes else {
            throw PluginRefusal("'\(path)' is no absolute path", fix: "give the file's whole path, from /")
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
            throw PluginRefusal("no file \(path) for '\(name)' of '\(descriptor.name)'", fix: "give a file that exists")
        }
        guard !layout.patchInputs.isEmpty else {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' has no input for messages, so '\(name)' cannot be set while it plays",
                                fix: "load a preset that names the file")
        }
        let bytes = PatchSetMessage.bytes(property: property.uri, path: path, urids: host.urids)
        guard bytes.withUnsafeBytes({ messages.write($0.baseAddress, count: $0.count) }) else {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' has too many sets waiting", fix: "try again in a moment")
        }
    }
}
