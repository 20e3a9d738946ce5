import Hub
import RtMidiBackend

/// The JACK → JACK connections the daemon made in JACK itself (by rule or by hand), through
/// a `JackPortConnector` on the bridge's server. MIDI on them flows without the daemon.
///
/// - Thread: owner (the state's owner, the MIDI input thread).
struct JackPeerLinks {
    /// The connector's client: kept, never closed, when its server dies (see `JackBridge`).
    let connector: JackPortConnector
    /// The connections made that JACK still reports.
    private(set) var connections: Set<Connection> = []

    init(connector: JackPortConnector) {
        self.connector = connector
    }

    /// Connects the two JACK ports of `connection` in JACK.
    /// - Throws: `JackMIDIError` when a port is gone or JACK refuses.
    mutating func connect(_ connection: Connection, in table: JackPortTable) throws(JackMIDIError) {
        let (source, destination) = try Self.names(of: connection, in: table)
        try connector.connect(source, to: destination)
        connections.insert(connection)
    }

    /// Disconnects them (not connected is success).
    /// - Throws: `JackMIDIError` when a port is gone or JACK refuses.
    mutating func disconnect(_ connection: Connection, in table: JackPortTable) throws(JackMIDIError) {
        connections.remove(connection)
        let (source, destination) = try Self.names(of: connection, in: table)
        try connector.disconnect(source, from: destination)
    }

    /// Forgets the connections JACK no longer reports (a port left, someone disconnected them).
    mutating func refresh(in table: JackPortTable) {
        connections = connections.filter { connection in
            guard let (source, destination) = try? Self.names(of: connection, in: table) else { return false }
            return connector.isConnected(source, to: destination)
        }
    }

    private static func names(of connection: Connection, in table: JackPortTable) throws(JackMIDIError) -> (JackPortName, JackPortName) {
        guard let source = table.jackName(at: connection.source), let destination = table.jackName(at: connection.destination) else {
            throw .unavailable(reason: "the JACK port is gone")
        }
        return (source, destination)
    }
}
