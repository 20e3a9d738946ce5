import MIDICore
import Control
import Dispatch
import Hub
import SetupViews

/// Scenes (docs/mappings.md#scenes): named parameter snapshots switched at once, or patches
/// loaded whole.
extension HubDaemon {
    /// Switches to scene `name` now (`HubInput.switchScene`): its values take effect at one
    /// frame; a scene that names a patch loads it shortly after (`loadPatch(at:for:)`).
    /// - Throws: `ControlError` when there is no such scene.
    /// - Thread: owner.
    @discardableResult
    func switchScene(named name: String) throws(ControlError) -> Scene {
        try command(.switchScene(name, at: HostTime.now()))
        return core.snapshot.scenes.first { $0.name == name }!
    }

    /// Scene `name` loads the patch at `path`: read and checked on a worker (off the MIDI
    /// path), installed on the owner; the loaded patch's scene of the same name, if any, is
    /// then the current one, and the file is the one watched. A broken file is logged in one
    /// line and the setup stays.
    /// - Thread: owner.
    func loadPatch(at path: String, for name: String) {
        slowWork.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { slowWork.leave() }
            do {
                try installPatchFile(at: path) { [self] in
                    log.info("scene \(name): loaded patch \(path)")
                    feed(.scenePatchInstalled(name))
                }
            } catch {
                log.error("scene '\(name)': patch \(path) not loaded, the setup stays: \(error)")
            }
        }
    }
}
