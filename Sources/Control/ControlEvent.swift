/// The name of an event on the wire (`"event":"port-appeared"`).
///
/// - Thread: any (a plain value).
public enum ControlEventKind: String, Hashable, Sendable, Codable, CaseIterable {
    case portAppeared = "port-appeared"
    case portLeft = "port-left"
    case connected
    case disconnected
    case parameterChanged = "parameter-changed"
    case nodeGone = "node-gone"
    case mappingLearned = "mapping-learned"
    case learnEnded = "learn-ended"
    case sceneChanged = "scene-changed"
    case triggerFired = "trigger-fired"
    case transportChanged = "transport-changed"
    /// A receiver (an external node's port) stopped taking MIDI and lost messages.
    case nodeOverloaded = "node-overloaded"
    /// An RTP-MIDI session came up: its port exists.
    case sessionUp = "session-up"
    /// An RTP-MIDI session ended: its port is gone.
    case sessionDown = "session-down"
    case log
    /// The server dropped events for this subscriber because it read too slowly.
    case dropped
    /// The daemon finished starting (the moment systemd hears `READY=1`).
    case started
    /// The daemon is stopping; its socket closes next.
    case stopping
}

/// Why a node left the graph.
public enum NodeGoneReason: String, Hashable, Sendable, Codable {
    case removed
    case deviceUnplugged = "device-unplugged"
    case overloaded
    /// An isolated plugin node's process ended on a signal (`signal` names it) or exited.
    case crashed
    /// An isolated plugin node's process stopped answering and was killed.
    case hung
    /// The JACK server the hub played into stopped or dropped it: its output nodes are
    /// silent until a server runs again (docs/jack.md).
    case jackStopped = "jack-stopped"
}

/// How important a log line is.
public enum LogLevel: String, Hashable, Sendable, Codable {
    case debug, info, warning, error
}

/// A change the daemon tells its subscribers about. On the wire one object per line,
/// named by `event`:
///
///     {"event":"port-appeared","port":{…PortSummary…}}
///     {"event":"connected","connection":{"source":"20:0","destination":"node:lead"}}
///     {"event":"parameter-changed","node":"lead","parameter":"cutoff","value":1200}
///     {"event":"node-gone","node":"fluid","reason":"device-unplugged"}
///     {"event":"node-gone","node":"fx","reason":"crashed","signal":"SIGSEGV"}
///     {"event":"mapping-learned","mapping":{…MappingSummary…}}
///     {"event":"learn-ended","reason":"timed-out"}
///     {"event":"scene-changed","scene":"chorus"}
///     {"event":"trigger-fired","trigger":"panic"}
///     {"event":"transport-changed","transport":{…TransportStatus…}}
///     {"event":"node-overloaded","node":"fluid","port":"128:0","count":312}
///     {"event":"session-up","peer":"laptop","address":"192.168.1.10:5004","port":"129:0"}
///     {"event":"session-down","peer":"laptop","address":"192.168.1.10:5004","reason":"the peer ended the session"}
///     {"event":"log","level":"info","message":"loaded patches/split.yaml"}
///     {"event":"dropped","count":17}
///     {"event":"started","version":"0.9.0","pid":4242}
///     {"event":"stopping","reason":"SIGTERM"}
///
/// - Thread: any (a plain value).
public enum ControlEvent: Hashable, Sendable {
    case portAppeared(PortSummary)
    case portLeft(PortSummary)
    case connected(ConnectionSummary)
    case disconnected(ConnectionSummary)
    case parameterChanged(node: String, parameter: String, value: Double)
    /// `signal`: the signal an isolated plugin's process ended on (`SIGSEGV`), for `crashed`.
    case nodeGone(node: String, reason: NodeGoneReason, signal: String? = nil)
    case mappingLearned(MappingSummary)
    case learnEnded(reason: LearnEnding)
    case sceneChanged(scene: String)
    case triggerFired(trigger: String)
    case transportChanged(TransportStatus)
    /// `node`'s receiver (`port`) lost `count` messages in all since the daemon started: it
    /// stopped reading and its own queue was full.
    case nodeOverloaded(node: String, port: String, count: Int)
    case sessionUp(NetworkSessionChange)
    case sessionDown(NetworkSessionChange)
    case log(level: LogLevel, message: String)
    case dropped(count: Int)
    /// The daemon (software `version`, process `pid`) serves: ports made, rules applied, the
    /// MIDI thread running, the socket listening.
    case started(version: String, pid: Int)
    /// The daemon stops (`reason`: the signal that stops it, as `SIGTERM`); it silences
    /// its instruments, saves its state and closes the socket.
    case stopping(reason: String)

    public var kind: ControlEventKind {
        switch self {
        case .portAppeared: .portAppeared
        case .portLeft: .portLeft
        case .connected: .connected
        case .disconnected: .disconnected
        case .parameterChanged: .parameterChanged
        case .nodeGone: .nodeGone
        case .mappingLearned: .mappingLearned
        case .learnEnded: .learnEnded
        case .sceneChanged: .sceneChanged
        case .triggerFired: .triggerFired
        case .transportChanged: .transportChanged
        case .nodeOverloaded: .nodeOverloaded
        case .sessionUp: .sessionUp
        case .sessionDown: .sessionDown
        case .log: .log
        case .dropped: .dropped
        case .started: .started
        case .stopping: .stopping
        }
    }
}

extension ControlEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case event, port, connection, node, parameter, value, reason, level, message, count, mapping, scene, trigger, transport
        case version, pid, signal
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(ControlEventKind.self, forKey: .event) {
        case .portAppeared:
            self = .portAppeared(try container.decode(PortSummary.self, forKey: .port))
        case .portLeft:
            self = .portLeft(try container.decode(PortSummary.self, forKey: .port))
        case .connected:
            self = .connected(try container.decode(ConnectionSummary.self, forKey: .connection))
        case .disconnected:
            self = .disconnected(try container.decode(ConnectionSummary.self, forKey: .connection))
        case .parameterChanged:
            self = .parameterChanged(
                node: try container.decode(String.self, forKey: .node),
                parameter: try container.decode(String.self, forKey: .parameter),
                value: try container.decode(Double.self, forKey: .value))
        case .nodeGone:
            self = .nodeGone(
                node: try container.decode(String.self, forKey: .node),
                reason: try container.decode(NodeGoneReason.self, forKey: .reason),
                signal: try container.decodeIfPresent(String.self, forKey: .signal))
        case .mappingLearned:
            self = .mappingLearned(try container.decode(MappingSummary.self, forKey: .mapping))
        case .learnEnded:
            self = .learnEnded(reason: try container.decode(LearnEnding.self, forKey: .reason))
        case .sceneChanged:
            self = .sceneChanged(scene: try container.decode(String.self, forKey: .scene))
        case .triggerFired:
            self = .triggerFired(trigger: try container.decode(String.self, forKey: .trigger))
        case .transportChanged:
            self = .transportChanged(try container.decode(TransportStatus.self, forKey: .transport))
        case .nodeOverloaded:
            self = .nodeOverloaded(
                node: try container.decode(String.self, forKey: .node),
                port: try container.decode(String.self, forKey: .port),
                count: try container.decode(Int.self, forKey: .count))
        case .sessionUp:
            self = .sessionUp(try NetworkSessionChange(from: decoder))
        case .sessionDown:
            self = .sessionDown(try NetworkSessionChange(from: decoder))
        case .log:
            self = .log(
                level: try container.decode(LogLevel.self, forKey: .level),
                message: try container.decode(String.self, forKey: .message))
        case .dropped:
            self = .dropped(count: try container.decode(Int.self, forKey: .count))
        case .started:
            self = .started(version: try container.decode(String.self, forKey: .version),
                            pid: try container.decode(Int.self, forKey: .pid))
        case .stopping:
            self = .stopping(reason: try container.decode(String.self, forKey: .reason))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .event)
        switch self {
        case .portAppeared(let port), .portLeft(let port):
            try container.encode(port, forKey: .port)
        case .connected(let connection), .disconnected(let connection):
            try container.encode(connection, forKey: .connection)
        case .parameterChanged(let node, let parameter, let value):
            try container.encode(node, forKey: .node)
            try container.encode(parameter, forKey: .parameter)
            try container.encode(value, forKey: .value)
        case .nodeGone(let node, let reason, let signal):
            try container.encode(node, forKey: .node)
            try container.encode(reason, forKey: .reason)
            try container.encodeIfPresent(signal, forKey: .signal)
        case .mappingLearned(let mapping):
            try container.encode(mapping, forKey: .mapping)
        case .learnEnded(let reason):
            try container.encode(reason, forKey: .reason)
        case .sceneChanged(let scene):
            try container.encode(scene, forKey: .scene)
        case .triggerFired(let trigger):
            try container.encode(trigger, forKey: .trigger)
        case .transportChanged(let status):
            try container.encode(status, forKey: .transport)
        case .nodeOverloaded(let node, let port, let count):
            try container.encode(node, forKey: .node)
            try container.encode(port, forKey: .port)
            try container.encode(count, forKey: .count)
        case .sessionUp(let change), .sessionDown(let change):
            try change.encode(to: encoder)
        case .log(let level, let message):
            try container.encode(level, forKey: .level)
            try container.encode(message, forKey: .message)
        case .dropped(let count):
            try container.encode(count, forKey: .count)
        case .started(let version, let pid):
            try container.encode(version, forKey: .version)
            try container.encode(pid, forKey: .pid)
        case .stopping(let reason):
            try container.encode(reason, forKey: .reason)
        }
    }
}
