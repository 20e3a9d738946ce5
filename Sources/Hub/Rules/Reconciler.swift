/// A connection between two ports, by current address.
///
/// - Thread: any (a plain value).
public struct Connection: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var source: PortAddress
    public var destination: PortAddress

    public init(_ source: PortAddress, _ destination: PortAddress) {
        self.source = source
        self.destination = destination
    }

    public var description: String { "\(source) -> \(destination)" }

    public static func < (a: Connection, b: Connection) -> Bool {
        (a.source, a.destination) < (b.source, b.destination)
    }
}

/// A connection made or broken by hand at runtime (through the control API), remembered by
/// port identity so it comes back when a device is replugged under a new client number.
///
/// - Thread: any (a plain value).
public struct RuntimeEdit: Hashable, Codable, Sendable {
    public var source: PortIdentity
    public var destination: PortIdentity
    /// `true`: keep connected; `false`: keep disconnected.
    public var connected: Bool

    public init(source: PortIdentity, destination: PortIdentity, connected: Bool) {
        self.source = source
        self.destination = destination
        self.connected = connected
    }
}

/// What to change to bring the current connections in line with the rules.
///
/// - Thread: any (a plain value).
public struct ConnectionPlan: Hashable, Sendable {
    /// Sorted by address.
    public var toMake: [Connection]
    /// Sorted by address.
    public var toBreak: [Connection]

    public var isEmpty: Bool { toMake.isEmpty && toBreak.isEmpty }
}

/// Computes the connections to make and to break from the port list, the current connections,
/// the rules and the runtime edits. Pure and idempotent: applying a plan and planning again
/// gives an empty plan.
///
/// Decision for a (source, destination) pair, first that applies:
/// 1. a runtime edit for exactly these two port identities;
/// 2. the last matching rule (`connect` → connected, `disallow` → not connected);
/// 3. no opinion: an existing connection stays, a missing one is not made.
///
/// Rules never connect a client to itself (that would loop its output into its input).
///
/// - Thread: control.
public struct Reconciler: Hashable, Sendable {
    public var rules: [ConnectionRule]
    public private(set) var runtimeEdits: [RuntimeEdit]

    public init(rules: [ConnectionRule] = [], runtimeEdits: [RuntimeEdit] = []) {
        self.rules = rules
        self.runtimeEdits = runtimeEdits
    }

    /// Remembers a hand-made connect or disconnect, replacing an earlier edit of the same pair.
    public mutating func record(connected: Bool, source: PortDescriptor, destination: PortDescriptor) {
        let edit = RuntimeEdit(source: source.identity, destination: destination.identity, connected: connected)
        runtimeEdits.removeAll { $0.source == edit.source && $0.destination == edit.destination }
        runtimeEdits.append(edit)
    }

    /// Whether the pair should be connected (`nil`: no opinion).
    public func wantsConnection(from source: PortDescriptor, to destination: PortDescriptor) -> Bool? {
        guard source.direction.canSend, destination.direction.canReceive else { return false }
        // A client's output into its own input feeds back: never by rule, nor by an edit
        // remembered by name (two daemons called midihub: one's out -> the other's in).
        if source.address.client == destination.address.client { return nil }
        let sourceID = source.identity, destinationID = destination.identity
        if let edit = runtimeEdits.last(where: { $0.source == sourceID && $0.destination == destinationID }) {
            return edit.connected
        }
        return ConnectionRule.decision(rules, source: source, destination: destination).map { $0 == .connect }
    }

    /// The plan for `ports` and `current` connections. Connections to ports missing from `ports` are ignored.
    public func plan(ports: [PortDescriptor], current: Set<Connection>) -> ConnectionPlan {
        let sources = ports.filter(\.direction.canSend)
        let destinations = ports.filter(\.direction.canReceive)
        var toMake: [Connection] = []
        var toBreak: [Connection] = []
        for source in sources {
            for destination in destinations where source.address != destination.address {
                let connection = Connection(source.address, destination.address)
                switch (wantsConnection(from: source, to: destination), current.contains(connection)) {
                case (true?, false): toMake.append(connection)
                case (false?, true): toBreak.append(connection)
                default: break
                }
            }
        }
        return ConnectionPlan(toMake: toMake.sorted(), toBreak: toBreak.sorted())
    }
}
