import Hub
import MIDICore

/// The ALSA → JACK port-to-port connections the bridge carries (a rule
/// `connect hardware:* -> jack:*`, or a hand edit): each ALSA source's events, received on
/// `midihub:in`, go to a JACK output of the daemon's connected to the JACK destination. The
/// notes each connection holds are tracked, so that breaking it or unplugging the source
/// releases them at the JACK destination.
///
/// - Thread: owner (the state's owner, the MIDI input thread); a plain value.
struct JackForwards {
    /// Every connection carried, ALSA source → JACK destination.
    private(set) var connections: Set<Connection> = []
    /// The JACK destinations of each ALSA source, for the per-event lookup.
    private var destinations: [PortAddress: [PortAddress]] = [:]
    /// The notes and pedals each connection holds down at its destination.
    private var sounding: [Connection: SoundingNotes] = [:]

    private static let origin = NoteOrigin(source: "alsa")
    private static let node: NodeID = "jack"

    var isEmpty: Bool { connections.isEmpty }

    /// The JACK destinations `source` feeds (none for most sources).
    func destinations(of source: PortAddress) -> [PortAddress] {
        destinations[source] ?? []
    }

    /// True when some connection carries `source`.
    func forwards(_ source: PortAddress) -> Bool {
        destinations[source] != nil
    }

    /// True when some connection ends at `destination`.
    func feeds(_ destination: PortAddress) -> Bool {
        connections.contains { $0.destination == destination }
    }

    mutating func insert(_ connection: Connection) {
        guard connections.insert(connection).inserted else { return }
        destinations[connection.source, default: []].append(connection.destination)
    }

    /// Notes that `message`, going out on `connection`, holds or lets go of.
    mutating func record(_ message: MIDIMessage, on connection: Connection) {
        sounding[connection, default: SoundingNotes()].record(message, origin: Self.origin, node: Self.node)
    }

    /// Stops carrying `connection`.
    /// - Returns: the note-offs (and sustain-offs) for what it held at its destination.
    mutating func remove(_ connection: Connection) -> [MIDIMessage] {
        guard connections.remove(connection) != nil else { return [] }
        destinations[connection.source]?.removeAll { $0 == connection.destination }
        if destinations[connection.source]?.isEmpty == true { destinations[connection.source] = nil }
        guard var held = sounding.removeValue(forKey: connection) else { return [] }
        return held.release(node: Self.node)?.messages ?? []
    }

    /// Stops carrying every connection from or to `address`.
    /// - Returns: each removed connection with its releases (empty when it held nothing).
    mutating func removeAll(touching address: PortAddress) -> [(connection: Connection, releases: [MIDIMessage])] {
        connections.filter { $0.source == address || $0.destination == address }.sorted().map { connection in
            (connection, remove(connection))
        }
    }
}
