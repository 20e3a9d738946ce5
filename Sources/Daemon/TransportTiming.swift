import ALSA
import Hub
import MIDICore

/// How the transport's events, routed with monotonic times ahead of now, reach their
/// destinations on time: the render thread's frame clock for unit nodes, the transport's
/// ALSA queue for ALSA ports (the kernel sends each at its time, as `aplaymidi` has it).
/// Both offsets are read once per batch, so every event of the batch converts alike.
///
/// - Thread: the state's owner (a plain value).
struct TransportTiming {
    /// A transport event for a JACK port, sent when it is due (`time`, monotonic seconds).
    struct HeldMessage {
        var time: Double
        var message: MIDIMessage
        var port: PortAddress
    }

    /// The transport's clock minus the monotonic clock.
    var clockOffset: Double
    var queue: SeqQueue
    /// The queue's real time minus the monotonic clock, plus the audio output's delay (so
    /// external gear sounds with what the sound card plays).
    var queueOffset: Double

    /// `time` (monotonic seconds) on the transport's clock.
    func clockTime(_ time: Double) -> Double { time + clockOffset }

    /// `time` (monotonic seconds) on the queue's real-time clock.
    func queueTime(_ time: Double) -> Double { time + queueOffset }
}
