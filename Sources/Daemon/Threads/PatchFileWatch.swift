import Foundation
import Glibc
import Hub
import Synchronization

/// The patch file the daemon runs — `--patch`, or the last patch `patch.load` read by path —
/// and the stamp (inode, size, modification time) it had when read, so that an edit on disk
/// (saved in place or by rename, as editors do) is noticed.
///
/// - Thread: control (the stamp is taken under a lock only to swap it; never on the owner).
final class PatchFileWatch: Sendable {
    struct Stamp: Equatable {
        var inode: UInt
        var size: Int
        var seconds: Int
        var nanoseconds: Int
    }

    private let state: ControlLock<(path: String?, stamp: Stamp?)>

    init(path: String?) {
        state = ControlLock((path, path.flatMap(Self.stamp)), name: "PatchFileWatch")
    }

    /// Watches `path` from now on, as it is now (`nil`: no file).
    func watch(_ path: String?) {
        let stamp = path.flatMap(Self.stamp)
        state.withLock { $0 = (path, stamp) }
    }

    /// The watched path, when its stamp changed since it was read (then the new stamp is
    /// taken as read); `nil` when nothing changed or the file is gone (a rename in progress).
    func changedPath() -> String? {
        state.withLock { state in
            guard let path = state.path, let stamp = Self.stamp(of: path), stamp != state.stamp else { return nil }
            state.stamp = stamp
            return path
        }
    }

    /// The watched path, taking its stamp as read now.
    func currentPath() -> String? {
        state.withLock { state in
            guard let path = state.path else { return nil }
            state.stamp = Self.stamp(of: path)
            return path
        }
    }

    private static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Stamp(inode: UInt(info.st_ino), size: Int(info.st_size), seconds: info.st_mtim.tv_sec,
                     nanoseconds: info.st_mtim.tv_nsec)
    }
}
