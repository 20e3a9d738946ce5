import ALSA
import Hub
import MIDICore

/// How the transport's events, routed with monotonic times ahead of now, reach their
/// destinations on time: the render thread's frame clock for unit nodes, the transport's
/// ALSA queue for ALSA ports (the kernel sends each at its time, as `aplaymidi` has it).
/// Both offsets are read once per batch, so every event of the batch converts alike.
///
/// - Thread: owner (a plain value the state's owner holds).
struct TransportTiming {
    /// A transport event for a JACK port, sent when it is due (`time`, the monotonic clock).
    struct HeldMessage {
        var time: HostTime
        var message: MIDIMessage
        var port: PortAddress
    }

    /// The transport's clock as read for the batch (its offset to the monotonic clock).
    var clock: TransportClock
    var queue: SeqQueue
    /// How far the queue's real time runs ahead of the monotonic clock, plus the audio
    /// output's delay (so external gear sounds with what the sound card plays).
    var queueAhead: HostDuration

    /// `time` (the monotonic clock) on the transport's clock.
    func clockTime(_ time: HostTime) -> TransportTime { clock.transportTime(time) }

    /// `time` (the monotonic clock) on the queue's real-time clock.
    func queueTime(_ time: HostTime) -> QueueTime { QueueTime(time, ahead: queueAhead) }
}

/// The offset between two clocks read one after the other (the transport's clock and the ALSA
/// queue's real time), steadied: a single reading is off by up to milliseconds (the queue's
/// time as the kernel reports it between timer interrupts, a period of frames rendered at
/// once), which would move every event scheduled from it. The mean of the readings so far,
/// then a slow moving average (1/50 per reading) that follows drift; a jump of more than
/// 50 ms (a clock started over) starts again.
///
/// - Thread: owner (a plain value the state's owner holds).
struct ClockOffsetFilter {
    private(set) var value: HostDuration?
    private var readings = 0

    /// Takes one reading and returns the steadied offset.
    mutating func add(_ reading: HostDuration) -> HostDuration {
        guard let current = value, (reading - current).magnitude < Self.jump else {
            value = reading
            readings = 1
            return reading
        }
        readings += 1
        let steadied = current + (reading - current) * max(1 / Double(readings), 0.02)
        value = steadied
        return steadied
    }

    /// A change this large is a clock started over, not drift.
    static let jump: HostDuration = 0.05
}
