internal import CLilv
import Foundation
import Glibc

/// `state:mapPath`, `state:makePath` and `state:freePath` for a running instance (lilv gives
/// its own in `save` and `restore`): the files a plugin makes while it runs (a recorder's
/// take) go into a folder of the instance's own, `FOLDER/NAME`; a path inside that folder is
/// abstracted as relative to it, any other stays whole; every path handed out is the
/// plugin's to free with `freePath`. The state writer's `ownState` copies the folder's
/// files beside the daemon's state.
///
/// - Thread: any (the plugin calls them from its threads; they only read `folder`).
final class StatePaths {
    /// The instance's folder, made on first use.
    let folder: String
    let mapPath: UnsafeMutablePointer<LV2_State_Map_Path>
    let makePath: UnsafeMutablePointer<LV2_State_Make_Path>
    let freePath: UnsafeMutablePointer<LV2_State_Free_Path>
    private let handle: UnsafeMutablePointer<CChar>

    /// - Thread: control.
    init(folder: String) {
        self.folder = folder
        handle = strdup(folder)
        let context = UnsafeMutableRawPointer(handle)
        mapPath = .allocate(capacity: 1)
        mapPath.initialize(to: LV2_State_Map_Path(handle: context, abstract_path: { handle, absolute in
            guard let handle, let absolute else { return nil }
            let folder = String(cString: handle.assumingMemoryBound(to: CChar.self)) + "/", path = String(cString: absolute)
            return strdup(path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path)
        }, absolute_path: { handle, abstract in
            guard let handle, let abstract else { return nil }
            let path = String(cString: abstract)
            return strdup(path.hasPrefix("/") ? path : String(cString: handle.assumingMemoryBound(to: CChar.self)) + "/" + path)
        }))
        makePath = .allocate(capacity: 1)
        makePath.initialize(to: LV2_State_Make_Path(handle: context, path: { handle, name in
            guard let handle, let name else { return nil }
            let path = String(cString: handle.assumingMemoryBound(to: CChar.self)) + "/" + String(cString: name)
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                     withIntermediateDirectories: true)
            return strdup(path)
        }))
        freePath = .allocate(capacity: 1)
        freePath.initialize(to: LV2_State_Free_Path(handle: nil, free_path: { _, path in free(path) }))
    }

    deinit {
        mapPath.deallocate()
        makePath.deallocate()
        freePath.deallocate()
        free(handle)
    }
}
