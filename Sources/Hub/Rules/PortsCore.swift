import MIDICore
/// The hub's ports and their connections as a pure value: inputs in, effects out. The first
/// part of the daemon's state kept this way (`HubCore` in DESIGN.md). It tells which ports
/// left and appeared in a new port list, which subscriptions somebody made or broke by
/// hand, when to apply the rules once a burst of announcements has settled, and which
/// connections to make or break. The daemon reads the ports, carries the effects out
/// (subscribes, releases the notes a departed port held, logs, publishes, saves) and tells
/// it what it subscribes.
///
/// - Thread: owner (the daemon's state owner); a plain value.
public struct PortsCore: Sendable {
    /// What the daemon does for an input.
    public enum Effect: Hashable, Sendable {
        /// A port left, or another device took its address: release the notes it held.
        case portLeft(PortDescriptor)
        /// A port appeared, also at the address of one that left since the last listing.
        case portAppeared(PortDescriptor)
        /// A connection made (`connected`) or broken by hand, kept as a runtime edit: save it.
        case handEditKept(source: PortDescriptor, destination: PortDescriptor, connected: Bool)
        /// What the rules and runtime edits want.
        case connect(Connection)
        case disconnect(Connection)
    }

    /// How long the announcements must be quiet before the rules are applied: while a card
    /// is being removed, its remaining ports have lost their subscriptions but still exist,
    /// and subscribing to them again then can block in the kernel.
    public static let settleDelay: HostDuration = 0.25

    /// The rules and the runtime edits.
    public var reconciler: Reconciler
    /// When the rules are next due (`nil`: nothing is waiting).
    public private(set) var settleDue: HostTime?
    /// Subscription changes seen but not confirmed as hand edits yet.
    private var pendingEdits: [(connection: Connection, connected: Bool)] = []
    /// Subscriptions the hub made or broke whose announcement has not come back yet.
    private var ownChanges: [Connection: Bool] = [:]

    public init(reconciler: Reconciler = Reconciler()) {
        self.reconciler = reconciler
    }

    /// The port list changed from `before` to `after` (read once per batch of announcements):
    /// the ports that left, those that appeared, and the rules due `settleDelay` later. A port
    /// whose address another device (or the same card, torn down and bound again) holds by the
    /// next listing has left, and the new one has appeared.
    public mutating func portsChanged(from before: [PortDescriptor], to after: [PortDescriptor], at time: HostTime) -> [Effect] {
        let now = Dictionary(after.map { ($0.address, $0.identity) }, uniquingKeysWith: { first, _ in first })
        let known = Dictionary(before.map { ($0.address, $0.identity) }, uniquingKeysWith: { first, _ in first })
        var effects: [Effect] = []
        for gone in before where now[gone.address] != gone.identity {
            pendingEdits.removeAll { $0.connection.source == gone.address || $0.connection.destination == gone.address }
            effects.append(.portLeft(gone))
        }
        for new in after where known[new.address] != new.identity { effects.append(.portAppeared(new)) }
        if before != after { settleDue = time + Self.settleDelay }
        return effects
    }

    /// A subscription appeared (`connected`) or vanished between `ports`. The hub's own is
    /// expected; any other may have been made by hand (`midihub connect`, `aconnect`, another
    /// app) — or by the kernel tearing a departing card down — so it waits to be confirmed
    /// once the ports have settled.
    public mutating func connectionAnnounced(_ connection: Connection, connected: Bool, ports: [PortDescriptor],
                                             at time: HostTime) {
        guard ownChanges.removeValue(forKey: connection) != connected,
              ports.contains(where: { $0.address == connection.source }),
              ports.contains(where: { $0.address == connection.destination }) else { return }
        pendingEdits.append((connection, connected))
        settleDue = time + Self.settleDelay
    }

    /// MIDI input was lost in the kernel, announcements maybe with it: the port list is read
    /// again a second later (once, however many losses come meanwhile).
    public mutating func inputLost(at time: HostTime) {
        if settleDue == nil { settleDue = time + 1 }
    }

    /// Whether the rules are due at `time`; if so, they are no longer pending (the daemon
    /// reads the port list again, then calls `settle`).
    public mutating func takeSettle(at time: HostTime) -> Bool {
        guard let due = settleDue, time >= due else { return false }
        settleDue = nil
        return true
    }

    /// Keeps as runtime edits the pending changes whose ports both still exist and whose
    /// state still holds (a departing card's vanished subscriptions are not edits), then
    /// plans the connections.
    public mutating func settle(ports: [PortDescriptor], connections: Set<Connection>) -> [Effect] {
        let byAddress = Dictionary(ports.map { ($0.address, $0) }, uniquingKeysWith: { first, _ in first })
        let edits = pendingEdits
        pendingEdits = []
        var effects: [Effect] = []
        for edit in edits {
            guard let source = byAddress[edit.connection.source], let destination = byAddress[edit.connection.destination],
                  connections.contains(edit.connection) == edit.connected else { continue }
            reconciler.record(connected: edit.connected, source: source, destination: destination)
            effects.append(.handEditKept(source: source, destination: destination, connected: edit.connected))
        }
        return effects + plan(ports: ports, connections: connections)
    }

    /// The connections to break, then to make, so that they follow the rules and runtime edits.
    public func plan(ports: [PortDescriptor], connections: Set<Connection>) -> [Effect] {
        let plan = reconciler.plan(ports: ports, current: connections)
        return plan.toBreak.map(Effect.disconnect) + plan.toMake.map(Effect.connect)
    }

    /// The hub is about to make (`connected`) or break `connection`: its announcement is no
    /// hand edit. `succeeded: false` when the kernel refused (no announcement comes).
    public mutating func applied(_ connection: Connection, connected: Bool, succeeded: Bool) {
        ownChanges[connection] = succeeded ? connected : nil
    }

    /// Whether the hub is making `connection` and its announcement has not come back yet.
    public func isMaking(_ connection: Connection) -> Bool {
        ownChanges[connection] == true
    }
}
