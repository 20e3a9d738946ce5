import Control
import Dispatch
import Foundation
import Hub
import MIDICore
import Sequencer
import Transport

/// The `record` trigger's takes (docs/transport.md#recording; the core records them,
/// `HubCore+Takes`): written to `recordings/take-DATE.mid` beside the state file, off the
/// MIDI path.
/// - Thread: owner (the MIDI input thread); the file is written on a worker.
extension HubDaemon {
    /// Where takes are written: `recordings/` beside the state file.
    var recordingsFolder: String {
        URL(fileURLWithPath: options.statePath).deletingLastPathComponent().appendingPathComponent("recordings").path
    }

    /// Writes `file` as `recordings/NAME` beside the state, off the MIDI path, atomically.
    /// Two takes in the same second get `NAME-2.mid` and on.
    func writeTake(_ file: MIDIFile, named name: String, saying what: String) {
        let folder = recordingsFolder
        let log = log
        slowWork.enter()
        DispatchQueue.global(qos: .utility).async { [slowWork] in
            defer { slowWork.leave() }
            let stem = folder + "/" + name.replacingOccurrences(of: ".mid", with: "")
            var path = stem + ".mid"
            var number = 2
            while FileManager.default.fileExists(atPath: path) {
                path = stem + "-\(number).mid"
                number += 1
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try AtomicFile.write(file.smfBytes(), to: path)
                log.info("recording: \(what) to \(path)")
            } catch {
                log.warning("recording: cannot write \(path): \(error) (fix: check free space and the permissions of \(folder))")
            }
        }
    }
}
