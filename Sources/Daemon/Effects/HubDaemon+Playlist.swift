import Dispatch
import Hub
import Sequencer
import Transport

/// The `play` trigger (docs/mappings.md#triggers): the sequence it names is read off the owner.
extension HubDaemon {
    /// A `play` trigger: reads the file on a worker (the disk never holds up MIDI), then
    /// loads it and plays it from the top; a file that cannot be read or played is logged.
    /// - Thread: owner (the worker hands the song back to it).
    func playSequence(at path: String, trigger name: String) {
        slowWork.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { slowWork.leave() }
            do {
                let song = Song(file: try SequenceFileReader.read(path: path), name: HubCore.songName(ofPath: path))
                if let refusal = song.refusal(path: path) {
                    log.warning("trigger '\(name)': cannot play \(refusal.problem) (fix: \(refusal.fix))")
                    return
                }
                try perform { [self] in
                    try moveTransport(.load([song]))
                    try moveTransport(.play)
                }
            } catch {
                log.warning("trigger '\(name)': cannot play \(path): \(error)")
            }
        }
    }
}
