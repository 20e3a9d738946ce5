import CSeqEncode
import Daemon
import Foundation
import Hub
import MIDICore

extension BenchmarkRow {
    /// The hub's per-event work on the host, no kernel: `MIDIRouter` routes note and control
    /// events from a keyboard through `keys → up (transpose) → synth-a` and `keys → synth-b`
    /// (both external nodes) into a sink that encodes each delivery as an alsa-lib event in an
    /// output buffer, as `midihub serve` does before a drain. Input events per second on one
    /// core, best of 3, against encoding the same deliveries alone (the part no router can
    /// avoid). The title gives the cost per input event against the 10 µs a 100,000 events/s
    /// stream allows.
    @Sendable static func hubRoute(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let events = HubRouteLoad.events(count: 2_000_000)
        var router = try MIDIRouter(graph: HubRouteLoad.graph())
        let sender = router.sender(for: HubRouteLoad.keyboard)
        var sink = EncodingSink(graph: router.graph)
        let routeSeconds = Timing.best(of: 3) {
            sink.delivered = 0
            for (offset, message) in events.enumerated() {
                router.route(message, from: sender, time: HostTime(nanoseconds: Int64(offset) * 10_000), into: &sink)
            }
        }
        let deliveries = HubRouteLoad.deliveries(of: events, destinations: sink.destinations)
        guard sink.delivered == deliveries.count, router.sounding.isEmpty else {
            throw BenchmarkError(description: "the router delivered \(sink.delivered) events, expected \(deliveries.count) (fix: see HubRouteBenchmark.swift)")
        }
        let buffer = EventBuffer()
        let encodeSeconds = Timing.best(of: 3) {
            for (message, destination) in deliveries { buffer.append(message, to: destination) }
        }
        let microseconds = routeSeconds / Double(events.count) * 1e6
        return BenchmarkResult(
            title: "hub route (\(events.count) note/CC events, 2 deliveries each, one via transpose; "
                + String(format: "%.2f µs per event = %.1f%% of the 10 µs budget at 100,000/s)", microseconds, microseconds * 10),
            unit: "events/s",
            midihub: Double(events.count) / routeSeconds,
            anchorName: "alsa-lib encoding alone",
            anchor: Double(events.count) / encodeSeconds)
    }
}

/// The graph, port and event stream of the hub-route row.
enum HubRouteLoad {
    static let keyboard = PortDescriptor(address: PortAddress(client: 20, port: 0), clientName: "Keystation",
                                         portName: "Keystation MIDI 1", portClass: .hardware, direction: .output,
                                         cardLongName: "Keystation 49")

    /// keys → up (+12) → synth-a, keys → synth-b.
    static func graph() throws -> HubGraph {
        func external(_ id: String) -> GraphNode {
            GraphNode(id: id, body: .external(ExternalNode(port: PortSelector(client: NamePattern(glob: id)))))
        }
        return try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
                                    GraphNode(id: "up", body: .processor(.transpose), parameters: ["semitones": 12]),
                                    external("synth-a"), external("synth-b")],
                            routes: [Route("keys", "up"), Route("up", "synth-a"), Route("keys", "synth-b")])
    }

    /// Repeating note-on, modulation, note-off, volume over 16 channels and 60 notes.
    static func events(count: Int) -> [MIDIMessage] {
        (0..<count).map { index in
            let step = index / 4, channel = UInt8(step / 60 % 16), note = UInt8(36 + step % 60)
            switch index % 4 {
            case 0: return .noteOn(channel: channel, note: note, velocity: 100)
            case 1: return .controlChange(channel: channel, controller: 1, value: UInt8(step % 128))
            case 2: return .noteOff(channel: channel, note: note, velocity: 0)
            default: return .controlChange(channel: channel, controller: 7, value: UInt8(step % 128))
            }
        }
    }

    /// What the graph delivers for `events`, in order: transposed to synth-a, as is to synth-b.
    static func deliveries(of events: [MIDIMessage], destinations: [EncodingSink.Destination?])
        -> [(MIDIMessage, EncodingSink.Destination)] {
        let synthA = destinations[2]!, synthB = destinations[3]!
        return events.flatMap { message -> [(MIDIMessage, EncodingSink.Destination)] in
            let up: MIDIMessage = switch message {
            case .noteOn(let channel, let note, let velocity): .noteOn(channel: channel, note: note + 12, velocity: velocity)
            case .noteOff(let channel, let note, let velocity): .noteOff(channel: channel, note: note + 12, velocity: velocity)
            default: message
            }
            return [(up, synthA), (message, synthB)]
        }
    }
}

/// A `RouteSink` that encodes what reaches an external node into an `EventBuffer`, each node
/// with its own made-up ALSA address (by node index, as the daemon resolves them).
struct EncodingSink: RouteSink {
    typealias Destination = (client: UInt8, port: UInt8)
    let destinations: [Destination?]
    let buffer = EventBuffer()
    var delivered = 0

    init(graph: HubGraph) {
        destinations = graph.nodes.indices.map { index in
            if case .external = graph.nodes[index].body { (UInt8(130 + index), 0) } else { nil }
        }
    }

    mutating func deliver(_ event: TimedMIDI, to target: RouteTarget) {
        guard let destination = destinations[target.index] else { return }
        buffer.append(event.message, to: destination)
        delivered += 1
    }
}

/// alsa-lib's output buffer in miniature: room for 512 events (the daemon's batch), emptied
/// when full as a drain would.
final class EventBuffer {
    static let capacity = 512
    private let storage = UnsafeMutableRawPointer.allocate(byteCount: capacity * seq_encode_event_size(), alignment: 16)
    private var count = 0

    deinit { storage.deallocate() }

    func append(_ message: MIDIMessage, to destination: EncodingSink.Destination) {
        let (status, data1, data2): (UInt8, UInt8, UInt8) = switch message {
        case .noteOn(let channel, let note, let velocity): (0x90 | channel, note, velocity)
        case .noteOff(let channel, let note, let velocity): (0x80 | channel, note, velocity)
        case .controlChange(let channel, let controller, let value): (0xB0 | channel, controller, value)
        default: (0, 0, 0)
        }
        _ = seq_encode_channel_message(storage, count, status, data1, data2, 1, destination.client, destination.port)
        count = count + 1 == Self.capacity ? 0 : count + 1
    }
}
