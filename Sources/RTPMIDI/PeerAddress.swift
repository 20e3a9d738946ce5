/// A UDP address of a session peer: a numeric host (IPv4 or IPv6, as the socket reported
/// it) and a port. A session has two: the peer's control port and its data port, one above.
///
/// - Thread: any (a value).
public struct PeerAddress: Hashable, Sendable, CustomStringConvertible {
    public var host: String
    public var port: UInt16

    /// - Thread: any.
    public init(host: String, port: UInt16) {
        (self.host, self.port) = (host, port)
    }

    /// The address one port above: where the data port of a peer whose control port this is
    /// listens.
    public var dataPort: PeerAddress { PeerAddress(host: host, port: port &+ 1) }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Which of a session host's two sockets a datagram came in on or goes out of.
/// - Thread: any (a value).
public enum SessionChannel: Hashable, Sendable {
    /// The control port (5004 by default): invitations, the end, receiver feedback.
    case control
    /// The data port (the control port + 1): invitations again, the clock sync, the MIDI.
    case data
}
