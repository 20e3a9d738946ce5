import CJack
import RenderCore

/// An `output:` node beyond the first, in JACK: its own pair of output ports on the hub's
/// client, `NAME-left` and `NAME-right`, connected to the JACK input ports its destination
/// matches (`jack:PATTERN`, as the main output's). What the program sums into it is written
/// to the ports in JACK's process callback, in the period it is rendered for.
///
/// - Thread: render for `process`; `init`, `prepare`, `stop` on control.
public final class JackOutputNode: Node, SideOutput, JackPortsNode, @unchecked Sendable {
    public let descriptor = NodeDescriptor(kind: .effect, subtype: "jout", manufacturer: "mhub", name: "JACK output", version: 1)
    public let parameters: [ParameterInfo] = []
    public let outputs: [OutputInfo] = []
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// The ports' names on the hub's client: `NAME-left`, `NAME-right`.
    let portName: String
    /// Where the ports go: `jack:PATTERN` (the input ports whose full names match the glob).
    public let destination: String
    let binding = JackPortBinding()
    let isInput = false
    private let host: JackAudioPorts
    private let reportLine: @Sendable (String) -> Void

    /// - Thread: control.
    public init(name: String, destination: String, host: JackAudioPorts, report: @escaping @Sendable (String) -> Void) {
        portName = name
        self.destination = destination
        self.host = host
        reportLine = report
        host.add(self)
    }

    /// - Thread: control (the ports' queue).
    func report(_ line: String) { reportLine("audio output '\(destination)': " + line) }

    /// Connects its ports to the input ports its destination names.
    /// - Thread: control (the ports' queue).
    func connect(on client: JackAudioClient) {
        guard binding.generation.load(ordering: .acquiring) == client.generation, let own = binding.portNames else { return }
        client.connect([own.left, own.right], to: destination)
    }

    /// - Thread: control.
    public var renderNode: any Node { self }

    /// Takes the ports off the client.
    /// - Thread: control.
    public func stop() {
        host.remove(binding, id: ObjectIdentifier(self))
    }

    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) { preparedFormat = format }

    /// Writes the bus (what is routed to the output) into this block's part of the ports' period.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard let ports = binding.nextBlock(of: context.frames, in: host) else { return }
        ports.left.update(from: context.bus.left, count: context.frames)
        ports.right.update(from: context.bus.right, count: context.frames)
    }
}
