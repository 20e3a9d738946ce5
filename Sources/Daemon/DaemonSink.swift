import ALSA
import Hub

/// Delivers what leaves the graph: unit nodes play through the audio rack's live ring
/// (arrival time plus one block), external nodes get the message at once: on their ALSA
/// port from midihub's output port, or on their JACK port through the JACK bridge.
///
/// - Thread: MIDI input or control, under the daemon's lock.
struct DaemonSink: RouteSink {
    let audio: AudioRack?
    let client: SeqClient
    let outPort: SeqPort
    let ports: PortCatalog
    let jack: JackBridge
    /// Set when something was queued for ALSA; the caller drains the output.
    private(set) var wroteOutput = false

    init(audio: AudioRack?, client: SeqClient, outPort: SeqPort, ports: PortCatalog, jack: JackBridge) {
        self.audio = audio
        self.client = client
        self.outPort = outPort
        self.ports = ports
        self.jack = jack
    }

    mutating func deliver(_ event: TimedMIDI, to node: GraphNode) {
        switch node.body {
        case .unit:
            audio?.play(event.message, on: node.id, at: event.time)
        case .external(let external):
            guard let port = ports.destination(for: external.port, excludingClient: client.clientID) else { return }
            if JackPortTable.isJack(port) {
                jack.send(event.message, to: port)
            } else if let address = SeqAddress(port) {
                _ = try? client.output(event.message, from: outPort, to: address)
                wroteOutput = true
            }
        default:
            return
        }
    }
}

extension PortCatalog {
    /// The first port, ALSA or JACK, that `selector` matches and that receives MIDI (not on `client`).
    func destination(for selector: PortSelector, excludingClient client: UInt8) -> PortAddress? {
        descriptors.first { $0.direction.canReceive && $0.address.client != Int(client) && selector.matches($0) }?.address
    }
}
