import ALSA
import Glibc
import Hub
import MIDICore

/// Delivers what leaves the graph: unit nodes play through the audio rack's live ring
/// (arrival time plus one block), external nodes get the message at once: on their ALSA
/// port from midihub's output port (direct dispatch), or on their JACK port through the
/// JACK bridge.
///
/// The transport's events come with their times ahead (`transport`): unit nodes get them
/// at their exact frame, ALSA ports through the transport's queue at its real time, JACK
/// ports are held (`jackLater`) until due.
///
/// When ALSA refuses output (midihub's pool or the receiver's FIFO is full) the sink
/// waits for room, up to `outputPatience`; what still does not fit is counted in
/// `dropped` (the daemon reports it), never silently lost.
///
/// - Thread: the state's owner (the MIDI input thread).
struct DaemonSink: RouteSink {
    let audio: AudioRack?
    let client: SeqClient
    let outPort: SeqPort
    /// Each external node's port, ALSA or JACK, by node index (`RouteCache.destinations`).
    let destinations: [ExternalDestination?]
    let jack: JackBridge
    /// Set when something was queued for ALSA; the caller drains the output.
    private(set) var wroteOutput = false
    /// Messages ALSA did not take within `outputPatience`.
    private(set) var dropped = 0
    /// How the transport's events are timed; `nil` for live MIDI.
    var transport: TransportTiming?
    /// The transport's events for JACK ports, to send when due (the daemon holds them).
    private(set) var jackLater: [TransportTiming.HeldMessage] = []

    /// How long to wait for room before dropping a message: 2000 tries 100 µs apart.
    static let outputPatience = (tries: 2000, microseconds: UInt32(100))

    init(audio: AudioRack?, client: SeqClient, outPort: SeqPort, destinations: [ExternalDestination?], jack: JackBridge) {
        self.audio = audio
        self.client = client
        self.outPort = outPort
        self.destinations = destinations
        self.jack = jack
    }

    mutating func deliver(_ event: TimedMIDI, to node: borrowing GraphNode, index: Int) {
        if case .unit = node.body {
            if let transport {
                audio?.schedule(event.message, on: node.id, at: transport.clockTime(event.time))
            } else {
                audio?.play(event.message, on: node.id, at: event.time)
            }
            return
        }
        switch index < destinations.count ? destinations[index] : nil {
        case .alsa(let address):
            send(event.message, to: address, schedule: transport.map { .realTime($0.queue, seconds: $0.queueTime(event.time)) } ?? .direct)
        case .jack(let port):
            if transport != nil {
                jackLater.append(.init(time: event.time, message: event.message, port: port))
            } else {
                jack.send(event.message, to: port)
            }
        case nil:
            return
        }
    }

    /// Delivers a clock message of the transport (at `time`, monotonic seconds) to the
    /// external node at `index`, which follows the clock; not through the graph.
    mutating func deliverClock(_ message: MIDIMessage, at time: Double, toNodeAt index: Int) {
        switch index < destinations.count ? destinations[index] : nil {
        case .alsa(let address):
            send(message, to: address, schedule: transport.map { .realTime($0.queue, seconds: $0.queueTime(time)) } ?? .direct)
        case .jack(let port):
            jackLater.append(.init(time: time, message: message, port: port))
        case nil:
            return
        }
    }

    /// Sends `message` from midihub's output port to the ALSA port `address` (an external
    /// node, a controller shown its values), at once or as `schedule` says.
    mutating func send(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule = .direct) {
        let queued = Self.retrying { [client, outPort] in try client.output(message, from: outPort, to: address, schedule: schedule) }
        if queued { wroteOutput = true } else { dropped += 1 }
    }

    /// Runs `attempt` until it succeeds or `outputPatience` runs out (an error ends it at once).
    /// - Returns: whether it succeeded.
    static func retrying(_ attempt: () throws -> Bool) -> Bool {
        for _ in 0..<outputPatience.tries {
            guard let done = try? attempt() else { return false }
            if done { return true }
            usleep(outputPatience.microseconds)
        }
        return false
    }
}
