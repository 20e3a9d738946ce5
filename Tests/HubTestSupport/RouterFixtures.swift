import Hub
import MIDICore
import RenderCore

/// Collects what the router delivers, by node.
public struct RecordingSink: RouteSink {
    public var delivered: [(node: NodeID, event: TimedMIDI)] = []

    public init() {}

    public mutating func deliver(_ event: TimedMIDI, to target: RouteTarget) {
        delivered.append((target.id, event))
    }

    public func messages(at node: NodeID) -> [MIDIMessage] { delivered.filter { $0.node == node }.map(\.event.message) }
}

/// Ports and a graph for routing tests (HubTests and DaemonTests).
public enum RouterFixtures {
    /// The built-in synth's descriptor, as the daemon's catalog registers it.
    public static let synthDescriptor = NodeDescriptor(kind: .instrument, subtype: "msyn", manufacturer: "mhub",
                                                       name: "midihub synth", version: 0x10000)
    public static let keyboard = PortDescriptor(address: PortAddress(client: 20, port: 0), clientName: "Virtual Raw MIDI 1-0",
                                                portName: "VirMIDI 1-0", portClass: .hardware, direction: .output,
                                                cardLongName: "Virtual MIDI Card 1")
    public static let app = PortDescriptor(address: PortAddress(client: 130, port: 0), clientName: "vmpk", portName: "out",
                                           portClass: .app, direction: .output)
    public static let synth = GraphNode(id: "synth", body: .unit(synthDescriptor))
    public static let fluid = GraphNode(id: "fluid", body: .external(ExternalNode(port: PortSelector(client: NamePattern(glob: "FLUID*")))))

    /// keys (hardware) → up (+12) → synth and fluid.
    public static func graph(semitones: Float = 12) throws -> HubGraph {
        try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
                             GraphNode(id: "up", body: .processor(.transpose), parameters: ["semitones": semitones]),
                             synth, fluid, GraphNode(id: "out", body: .output("default"))],
                     routes: [Route("keys", "up"), Route("up", "synth"), Route("up", "fluid"), Route("synth", "out")])
    }
}
