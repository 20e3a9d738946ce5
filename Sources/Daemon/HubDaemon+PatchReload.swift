import Control
import Hub

/// Reloading the patch file when it changes on disk or on SIGHUP (docs/daemon.md).
extension HubDaemon {
    /// Reloads the patch file if it changed since it was read.
    /// - Thread: main (the file is read and parsed here, off the MIDI owner).
    public func reloadPatchIfChanged() {
        guard let path = patchFile.changedPath() else { return }
        reloadPatch(path, because: "changed on disk")
    }

    /// Reloads the patch file (SIGHUP); logs when there is none to reload.
    /// - Thread: main.
    public func reloadPatch() {
        guard let path = patchFile.currentPath() else {
            log.warning("SIGHUP: no patch file to reload (fix: start with --patch FILE, or load one with 'midihub patch load FILE')")
            return
        }
        reloadPatch(path, because: "SIGHUP")
    }

    /// Validates the patch at `path` and installs it; a broken one is logged in one line
    /// (`file:line:column: reason (fix: …)`) and the running setup stays as it was.
    private func reloadPatch(_ path: String, because reason: String) {
        let patch: Patch
        do {
            patch = try Patch.load(contentsOf: path, registry: NodeCatalog.registry)
        } catch {
            log.error("patch not reloaded, the running setup stays: \(error)")
            return
        }
        do {
            try owner.perform { [self] in try install(patch) }
            log.info("reloaded patch \(path) (\(reason))")
        } catch {
            log.error("patch \(path) not reloaded: \(error)")
        }
    }
}
