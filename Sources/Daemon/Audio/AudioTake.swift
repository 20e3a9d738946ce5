import AudioHost
import Hub

/// A recording of what the daemon plays (`audio.record`): the file, the node recorded
/// (`nil`: the master), and the recorder once its file is open.
///
/// - Thread: owner (held by `HubDaemon.audioTake`; the recorder itself is finished on the control side).
struct AudioTake {
    var path: String
    var node: NodeID?
    var recorder: AudioRecorder?
}
