import Dispatch
import RenderCore

/// The graph's own JACK ports beside the main output's, on the hub's JACK client: for each
/// `JackInputNode` (an external instrument whose `audio:` names JACK ports, or an input) a
/// pair of input ports, and for each `JackOutputNode` (an output node beyond the first) a
/// pair of output ports, `NODE-left` and `NODE-right`. Inputs are connected from the JACK
/// audio outputs their selector matches (or the physical capture ports), outputs to the
/// input ports their destination names — when the node is made, when the hub joins a server
/// (again), and whenever JACK's ports change (an app started after the hub).
///
/// The server's round trips are made on a serial queue of its own, never on the thread that
/// makes a node (the MIDI thread may) nor on JACK's threads. JACK's process thread tells
/// the period here (`beginPeriod`), where each node reads or writes its ports' buffers.
///
/// - Thread: control for `add`, `adopt`, `release` (owner too, not waiting), and the queue for the server's round trips;
///   render (JACK's process thread) for `beginPeriod` and what the nodes read of it.
public final class JackAudioPorts: @unchecked Sendable {
    /// Where the round trips to the server are made, one at a time.
    private let queue = DispatchQueue(label: "midihub-jack-ports")
    /// The queue's own: the client the ports are registered on, and the nodes to serve.
    private var client: JackAudioClient?
    private var nodes: [ObjectIdentifier: Weak] = [:]
    /// Where the MIDI lane's problems go (the queue's own, given with the inputs).
    private var reportMIDI: @Sendable (String) -> Void = { _ in }
    /// JACK MIDI sources read in the process callback (ports on the same client).
    public let midi = JackMIDILane()

    /// The process thread's own: the current period's frames, a count of periods, and the
    /// generation of the client whose process thread runs (nodes bound to another read nothing).
    private(set) var periodFrames = 0
    private(set) var periods = 0
    private(set) var generation = 0

    private struct Weak {
        weak var node: (any JackPortsNode)?
    }

    public init() {}

    /// Serves `node` from now on: its ports are registered and connected on the current
    /// client, if any (later, on the queue).
    /// - Thread: any.
    func add(_ node: any JackPortsNode) {
        queue.async { [self] in
            nodes[ObjectIdentifier(node)] = Weak(node: node)
            if let client, !client.serverGone { bind(node, to: client) }
        }
    }

    /// The node of `id` is going: its ports leave the client.
    /// - Thread: any (its deinit, or its stop).
    func remove(_ binding: JackPortBinding, id: ObjectIdentifier) {
        queue.async { [self] in
            nodes[id] = nil
            guard let client, !client.serverGone, binding.generation.load(ordering: .acquiring) == client.generation else { return }
            binding.unbind()?.forEach(client.unregister)
        }
    }

    /// The hub's client joined a server: every node's ports are registered on it and connected.
    /// - Thread: control (the driver's opening, after the client is active).
    func adopt(_ client: JackAudioClient) {
        queue.async { [self] in
            self.client = client
            nodes = nodes.filter { $0.value.node != nil }
            for entry in nodes.values { if let node = entry.node { bind(node, to: client) } }
            midi.bind(to: client, report: reportMIDI)
        }
    }

    /// The client is closing: the nodes stop using its ports. With `waiting` (a client that
    /// will be closed), waits for the queue, so that nothing is asked of the client once it
    /// is closed; a client whose server went is never closed, and the caller (the MIDI thread
    /// may be one) does not wait for a round trip the queue may be stuck in.
    /// - Thread: control, or owner without `waiting`.
    func release(_ client: JackAudioClient, waiting: Bool) {
        let forget: @Sendable () -> Void = { [self] in
            guard self.client === client else { return }
            self.client = nil
            for entry in nodes.values { _ = entry.node?.binding.unbind() }
            midi.unbind()
        }
        if waiting { queue.sync(execute: forget) } else { queue.async(execute: forget) }
    }

    /// JACK's ports changed (from its notification thread): connect the nodes again.
    /// - Thread: any.
    func portsChanged(on client: JackAudioClient) {
        queue.async { [self] in
            guard self.client === client, !client.serverGone else { return }
            for entry in nodes.values { if let node = entry.node { node.connect(on: client) } }
            midi.connect(on: client)
        }
    }

    /// Reads exactly the JACK MIDI sources `inputs` in the process callback from now on (see
    /// `JackMIDILane`); problems go to `report`.
    /// - Thread: any (the owner: the ports are registered on the queue).
    public func readMIDI(_ inputs: [JackMIDILane.Input], report: @escaping @Sendable (String) -> Void) {
        queue.async { [self] in
            reportMIDI = report
            midi.apply(inputs, on: client.flatMap { $0.serverGone ? nil : $0 }, report: report)
        }
    }

    /// A new period of `frames` on the process thread of the client of `generation`; the
    /// graph renders it (`rendering`) or not. The MIDI lane hands the period's events on.
    /// - Thread: render (JACK's process thread).
    func beginPeriod(frames: Int, generation: Int, rendering: Bool) {
        periodFrames = frames
        periods &+= 1
        self.generation = generation
        midi.beginPeriod(frames: frames, generation: generation, rendering: rendering)
    }

    /// Inserts the JACK MIDI of this block (`offset ..< offset + frames` of the period) at
    /// its frames for the nodes it goes to directly (`JackMIDILane.collect`).
    /// - Returns: events dropped because `buffer` was full.
    /// - Thread: render (JACK's process thread).
    func collectMIDI(offset: Int, frames: Int, into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        midi.collect(offset: offset, frames: frames, periodFrames: periodFrames, generation: generation,
                     into: buffer, count: &count, capacity: capacity)
    }

    /// Registers `node`'s ports on `client` (once per client) and connects them.
    /// - Thread: control (the queue).
    private func bind(_ node: any JackPortsNode, to client: JackAudioClient) {
        if node.binding.generation.load(ordering: .acquiring) != client.generation {
            guard let ports = client.registerPair(named: node.portName, input: node.isInput) else {
                node.report("JACK refused the ports \(client.name):\(node.portName)-left and -right; "
                            + "the node '\(node.portName)' is silent (fix: rename the node, or restart the hub)")
                return
            }
            node.binding.bind(ports, generation: client.generation)
        }
        node.connect(on: client)
    }
}

/// A render node with a pair of ports on the hub's JACK client (`JackAudioPorts`).
///
/// - Thread: control (the ports' queue) for what `JackAudioPorts` asks.
protocol JackPortsNode: AnyObject, Sendable {
    /// The ports' names on the client: `NAME-left`, `NAME-right`.
    var portName: String { get }
    /// Input ports (the node reads them) or output ports (it writes them).
    var isInput: Bool { get }
    var binding: JackPortBinding { get }
    /// Connects its ports as its selector or destination says (on the queue, once bound).
    func connect(on client: JackAudioClient)
    /// Where a problem goes (the daemon's log).
    func report(_ line: String)
}
