import ALSA
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
/// ALSA ports get each message at once through `ReceiverQueues`: a receiver whose input is
/// full has its messages wait in a bounded queue of its own, and costs the others nothing.
/// The sink never waits.
///
/// - Thread: owner (the state's owner, the MIDI input thread).
struct DaemonSink: RouteSink {
    let audio: AudioRack?
    /// Where ALSA ports' messages go, each receiver on its own.
    let receivers: ReceiverQueues
    /// Each external node's port, ALSA or JACK, by node index (`RouteCache.destinations`).
    let destinations: [ExternalDestination?]
    let jack: JackBridge
    /// How the transport's events are timed; `nil` for live MIDI.
    var transport: TransportTiming?
    /// The transport's events for JACK ports, to send when due (the daemon holds them).
    private(set) var jackLater: [TransportTiming.HeldMessage] = []
    /// Set while routing a live message the hub's JACK client already played on the unit
    /// nodes, or on the JACK ports of external nodes (`JackMIDILane`): they are not given it again.
    var skipsUnits = false
    var skipsJackPorts = false

    init(audio: AudioRack?, receivers: ReceiverQueues, destinations: [ExternalDestination?], jack: JackBridge) {
        self.audio = audio
        self.receivers = receivers
        self.destinations = destinations
        self.jack = jack
    }

    mutating func deliver(_ event: TimedMIDI, to target: RouteTarget) {
        if target.isUnit {
            if skipsUnits { return }
            if let transport {
                audio?.schedule(event.message, on: target.id, at: transport.clockTime(event.time))
            } else {
                audio?.play(event.message, on: target.id, at: event.time)
            }
            return
        }
        let index = target.index
        switch index < destinations.count ? destinations[index] : nil {
        case .alsa(let address):
            send(event.message, to: address, schedule: transport.map { .realTime($0.queue, $0.queueTime(event.time)) } ?? .direct)
        case .jack(let port):
            if transport != nil {
                jackLater.append(.init(time: event.time, message: event.message, port: port))
            } else if !skipsJackPorts {
                jack.send(event.message, to: port)
            }
        case nil:
            return
        }
    }

    /// Delivers a clock message of the transport (at `time`, the monotonic clock) to the
    /// external node at `index`, which follows the clock; not through the graph.
    mutating func deliverClock(_ message: MIDIMessage, at time: HostTime, toNodeAt index: Int) {
        switch index < destinations.count ? destinations[index] : nil {
        case .alsa(let address):
            send(message, to: address, schedule: transport.map { .realTime($0.queue, $0.queueTime(time)) } ?? .direct)
        case .jack(let port):
            jackLater.append(.init(time: time, message: message, port: port))
        case nil:
            return
        }
    }

    /// Sends `message` from midihub's output port to the ALSA port `address` (an external
    /// node, a controller shown its values), at once or as `schedule` says; a full receiver's
    /// messages wait in its own queue (`ReceiverQueues`).
    func send(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule = .direct) {
        receivers.send(message, to: address, schedule: schedule)
    }
}
