import RenderCore

/// A node's name in the graph, unique within it (as written in patches: `keys`, `piano`).
public typealias NodeID = String

/// The two kinds of signal that flow along routes.
/// - Thread: any (a plain value).
public enum Signal: String, Hashable, Codable, Sendable {
    case midi = "MIDI"
    case audio
}

/// Another application's port (or a hardware synth's) used as a node, addressed by name.
///
/// - Thread: any (a plain value).
public struct ExternalNode: Hashable, Sendable {
    public enum Role: String, Hashable, Codable, Sendable {
        /// Takes MIDI; its sound goes elsewhere (e.g. `fluidsynth -m alsa_seq`).
        case instrument
        /// Takes MIDI and sends MIDI back from a port of the same client.
        case processor
    }

    /// Which port to send to (and, for a processor, to read back from the same client).
    public var port: PortSelector
    public var role: Role
    /// How a node shares the transport's MIDI clock (24 per quarter, Start, Stop, Continue,
    /// Song Position).
    public enum ClockLink: String, Hashable, Codable, Sendable {
        /// The transport sends it the clock.
        case send
        /// The transport follows the clock its client sends (docs/transport.md#midi-clock-in).
        case follow
    }

    /// Its clock link, if any; for `send`, how many milliseconds early (negative) or late to
    /// send the clock, to line up with a device that sounds late or early.
    public var clock: ClockLink?
    public var clockOffset: Double
    /// Where an instrument's sound comes back into the graph (`audio:`): `jack:CLIENT:PORT`,
    /// a selector on JACK's audio output ports (`jack:fluidsynth:*`); `nil`: its sound goes elsewhere.
    public var audio: String?

    public init(port: PortSelector, role: Role = .instrument, clock: ClockLink? = nil, clockOffset: Double = 0,
                audio: String? = nil) {
        self.port = port
        self.role = role
        self.clock = clock
        self.clockOffset = clockOffset
        self.audio = audio
    }

    /// Whether its sound comes back into the graph: an instrument with `audio`.
    public var playsIntoGraph: Bool { role == .instrument && audio != nil }

    /// Whether MIDI from `sender` is what this node sends back: the node is a processor and
    /// `sender` is a sending port of the client its selector names (any of its ports).
    /// - Thread: any.
    public func sendsBack(from sender: PortDescriptor) -> Bool {
        role == .processor && sender.direction.canSend
            && port.everyPort.matches(sender)
    }

    /// Whether the transport follows the clock `sender` sends: the node leads the clock and
    /// `sender` is a port of the client its selector names (any of its ports: midish sends
    /// from a port nobody can subscribe to, connected by itself).
    /// - Thread: any.
    public func leadsClock(from sender: PortDescriptor) -> Bool {
        clock == .follow && port.everyPort.matches(sender)
    }
}

/// What a graph node is.
///
/// - Thread: any (a plain value).
public enum NodeBody: Hashable, Sendable {
    /// MIDI arriving from the ports the selector matches (keyboards, apps).
    case source(PortSelector)
    /// A built-in MIDI processor.
    case processor(ProcessorConfig)
    /// A render node of the registry (built-in synth or effect), identified by its descriptor.
    case unit(NodeDescriptor)
    /// Another app's port registered as an instrument or processor.
    case external(ExternalNode)
    /// The audio output (a PCM device name such as `default`).
    case output(String)
    /// An audio input: what a capture device (`hw:1,0`, a loopback) records, played into
    /// the graph as a generator (`NodeDescriptor.audioInput`).
    case input(String)

    /// A word for error messages and listings: source, processor, instrument, effect, …, external, output.
    public var kindName: String {
        switch self {
        case .source: "source"
        case .processor: "processor"
        case .unit(let descriptor): descriptor.kind.rawValue
        case .external(let node): "external \(node.role.rawValue)"
        case .output: "output"
        case .input: "input"
        }
    }

    /// Whether the graph renders the node's sound: an instrument, effect or generator unit
    /// (not an LV2 MIDI effect), an audio input, an external instrument whose `audio:` comes back.
    public var rendersAudio: Bool {
        switch self {
        case .unit(let descriptor): descriptor.kind != .midiProcessor
        case .input: true
        case .external(let node): node.playsIntoGraph
        case .source, .processor, .output: false
        }
    }

    /// Whether the router runs the node as a MIDI processor: a built-in processor, or a unit
    /// of kind `midiProcessor` (an LV2 MIDI effect).
    public var isMIDIProcessor: Bool {
        switch self {
        case .processor: true
        case .unit(let descriptor): descriptor.kind == .midiProcessor
        default: false
        }
    }

    /// The signals the node accepts.
    public var inputs: Set<Signal> {
        switch self {
        case .source, .input: []
        case .processor, .external: [.midi]
        case .output: [.audio]
        case .unit(let descriptor):
            switch descriptor.kind {
            case .generator: []
            case .instrument, .midiProcessor: [.midi]
            case .effect: [.audio]
            case .musicEffect: [.midi, .audio]
            }
        }
    }

    /// The signal the node produces, `nil` for sinks.
    public var output: Signal? {
        switch self {
        case .source, .processor: .midi
        case .external(let node): node.role == .processor ? .midi : node.playsIntoGraph ? .audio : nil
        case .output: nil
        case .input: .audio
        case .unit(let descriptor): descriptor.kind == .midiProcessor ? .midi : .audio
        }
    }
}

/// One node of the graph with its initial parameter values (by parameter name).
///
/// - Thread: any (a plain value).
public struct GraphNode: Hashable, Sendable {
    public var id: NodeID
    public var body: NodeBody
    public var parameters: [String: Float]

    public init(id: NodeID, body: NodeBody, parameters: [String: Float] = [:]) {
        self.id = id
        self.body = body
        self.parameters = parameters
    }

    /// Whether the node takes the host's `bypass` (an effect or a music effect).
    public var canBypass: Bool {
        if case .unit(let descriptor) = body { descriptor.kind.canBypass } else { false }
    }

    /// Whether the node is an effect whose `bypass` is on: its audio input is heard in its place.
    public var isBypassed: Bool {
        canBypass && (parameters[ParameterInfo.bypass.name] ?? 0) >= 0.5
    }

    /// Whether the transport follows this node's MIDI clock (an external node with `clock: follow`).
    public var leadsClock: Bool {
        if case .external(let external) = body { external.clock == .follow } else { false }
    }
}

/// A route: the output of `from` feeds `to`. MIDI routes may pass only some channels.
///
/// - Thread: any (a plain value).
public struct Route: Hashable, Codable, Sendable, CustomStringConvertible {
    public var from: NodeID
    public var to: NodeID
    /// 1-based MIDI channels that pass; `nil` passes all.
    public var channels: Set<Int>?
    /// The send output of `from` the route carries (a SoundFont instrument's `reverb`);
    /// `nil`: its main output.
    public var output: String?

    public init(_ from: NodeID, _ to: NodeID, channels: Set<Int>? = nil, output: String? = nil) {
        self.from = from
        self.to = to
        self.channels = channels
        self.output = output
    }

    public var description: String { "\(from)\(output.map { "." + $0 } ?? "") -> \(to)" }

    /// Whether a message on `channel` (0-based; `nil` for system messages) passes this route.
    public func passes(channel: UInt8?) -> Bool {
        guard let channels, let channel else { return true }
        return channels.contains(Int(channel) + 1)
    }
}
