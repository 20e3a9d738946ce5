import Control
import Hub
import SetupViews

/// Installing a patch file — `patch.load` by path, a reload when the file changes on disk or
/// on SIGHUP, a scene that names a patch — and reloading it (docs/daemon.md).
extension HubDaemon {
    /// Reads and checks the patch at `path` on the calling thread, installs it on the owner
    /// and runs `then` there (in the same turn, so nothing comes between), and makes it the
    /// watched file. A broken file or an install the graph refuses changes nothing.
    /// - Throws: `ControlError` (`invalid-patch` naming `file:line:column` and the fix, or
    ///   what the install refused).
    /// - Thread: any but the owner (the control server's thread, main, a worker): the file
    ///   is read and parsed off the MIDI path.
    func installPatchFile<T>(at path: String, then: @escaping () throws -> T) throws -> T {
        let patch: Patch
        do {
            patch = try Patch.load(contentsOf: path, registry: registry)
        } catch {
            throw ControlError(.invalidPatch, error.problem, fix: error.oneLineFix)
        }
        let result = try install(patch, then: then)
        patchFile.watch(path)
        return result
    }

    /// Reloads the patch file if it changed since it was read.
    /// - Thread: control (main, while the daemon runs: the file is read and parsed here, off
    ///   the MIDI owner).
    public func reloadPatchIfChanged() {
        guard let path = patchFile.changedPath() else { return }
        reloadPatch(path, because: "changed on disk")
    }

    /// Reloads the patch file (SIGHUP); logs when there is none to reload.
    /// - Thread: control (main, while the daemon runs).
    public func reloadPatch() {
        guard let path = patchFile.currentPath() else {
            log.warning("SIGHUP: no patch file to reload (fix: start with --patch FILE, or load one with 'midihub patch load FILE')")
            return
        }
        reloadPatch(path, because: "SIGHUP")
    }

    /// Installs the patch at `path` again; a broken one is logged in one line
    /// (`file:line:column: reason (fix: …)`) and the running setup stays as it was.
    private func reloadPatch(_ path: String, because reason: String) {
        do {
            try installPatchFile(at: path) { [self] in log.info("reloaded patch \(path) (\(reason))") }
        } catch {
            log.error("patch not reloaded, the running setup stays: \(error)")
        }
    }
}
