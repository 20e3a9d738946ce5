import ALSA
import MIDICore
import RTPMIDI
import Synchronization

/// An RTP-MIDI host (docs/network.md): Apple's session protocol on a UDP control port and the
/// data port above it, each session one ALSA sequencer port. The sessions' logic is
/// `RTPMIDI.SessionHost`; `SessionLoop` gives it its sockets, the ports, a clock and a timer
/// every 10 ms, all on one thread of its own.
///
/// - Thread: any but the host's own (each call waits for that thread; `stop` until it ends).
public final class NetworkHost: Sendable {
    /// What happened to a session, for a log line or a control event (on the host's thread).
    public enum Event: Sendable {
        /// Once the session's port exists.
        case up(SessionSummary, port: SeqAddress)
        case down(SessionSummary, reason: String)
    }

    /// The control port peers invite (the data port is one above).
    public let port: Int
    private let loop: SessionLoop

    /// Binds the two ports on `address` and starts the host.
    /// - Parameters:
    ///   - name: the session name peers show (and the ALSA client's is "midihub network").
    ///   - port: the control port; 0 lets the system choose (then the data port is the one
    ///     above it, if free).
    ///   - sendsJournal: false sends packets without the recovery journal (to show what it repairs).
    ///   - jitterBuffer: microseconds after its sender's stamp that a received event is
    ///     played (0: as it arrives; `SessionHost.jitterBuffer`).
    ///   - allowList: the networks whose invitations are accepted (others get NO).
    ///   - events: told of each session up and down.
    /// - Throws: `NetworkError` naming the port in use or the sequencer missing.
    public init(name: String, address: String = "0.0.0.0", port: Int = 5004, clientName: String = "midihub network",
                sendsJournal: Bool = true, jitterBuffer: UInt64 = 0, allowList: PeerAllowList = .everyone,
                events: @escaping @Sendable (Event) -> Void) throws(NetworkError) {
        var host = SessionHost(name: name, ssrc: UInt32.random(in: 1...UInt32.max))
        host.sendsJournal = sendsJournal
        host.jitterBuffer = jitterBuffer
        host.allowList = allowList
        loop = try SessionLoop(host: host, clientName: clientName, address: address, port: port, events: events)
        self.port = loop.port
    }

    /// Invites a peer; its session comes up when it accepts (and keeps being invited until
    /// it does, or `end`).
    @discardableResult
    public func invite(_ peer: PeerAddress) -> SessionID {
        loop.perform { $0.invite(peer) } ?? 0
    }

    /// Ends one session (BY to its peer when it is up, note-offs for what it left sounding);
    /// a peer this host invited is not invited again.
    public func end(_ id: SessionID) {
        _ = loop.perform { $0.end(id) }
    }

    /// Every session, oldest first.
    public func sessions() -> [SessionSummary] {
        loop.perform { $0.summaries } ?? []
    }

    /// Ends every session (BY to each peer, note-offs for what they left sounding), closes the
    /// ports and the sockets.
    public func stop() {
        loop.stop()
    }
}
