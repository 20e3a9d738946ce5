import ALSA
import Glibc
import Hub
import MIDICore

/// Delivers what leaves the graph: unit nodes play through the audio rack's live ring
/// (arrival time plus one block), external nodes get the message at once: on their ALSA
/// port from midihub's output port (direct dispatch), or on their JACK port through the
/// JACK bridge.
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
            audio?.play(event.message, on: node.id, at: event.time)
            return
        }
        switch index < destinations.count ? destinations[index] : nil {
        case .alsa(let address):
            send(event.message, to: address)
        case .jack(let port):
            jack.send(event.message, to: port)
        case nil:
            return
        }
    }

    /// Sends `message` at once from midihub's output port to the ALSA port `address` (an
    /// external node, a controller shown its values).
    mutating func send(_ message: MIDIMessage, to address: SeqAddress) {
        let queued = Self.retrying { [client, outPort] in try client.output(message, from: outPort, to: address) }
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
