import ALSA
import MIDICore
import NIOCore
import NIOPosix
import RTPMIDI
import Synchronization

/// An RTP-MIDI host (docs/network.md): Apple's session protocol on a UDP control port and the
/// data port above it, each session one ALSA sequencer port. The sessions' logic is
/// `RTPMIDI.SessionHost`; this gives it its sockets (SwiftNIO datagram channels on one event
/// loop thread of their own), a clock, a timer every 10 ms, and the ports (`SessionPorts`).
///
/// - Thread: any (every call hops to the event loop; `start` and `stop` block until it is done).
public final class NetworkHost: Sendable {
    /// What happened to a session, for a log line or a control event.
    public enum Event: Sendable {
        /// On the sequencer thread, once the session's port exists.
        case up(SessionSummary, port: SeqAddress)
        /// On the event loop thread.
        case down(SessionSummary, reason: String)
    }

    /// The control port peers invite (the data port is one above).
    public let port: Int
    private let loops: MultiThreadedEventLoopGroup
    private let loop: any EventLoop
    private let state: NIOLoopBound<SessionLoop>
    private let ports: SessionPorts

    /// Binds the two ports on `address` and starts the host.
    /// - Parameters:
    ///   - name: the session name peers show (and the ALSA client's is "midihub network").
    ///   - port: the control port; 0 lets the system choose (then the data port is whatever
    ///     it gives next, and peers must be told both: for tests).
    ///   - sendsJournal: false sends packets without the recovery journal (to show what it repairs).
    ///   - jitterBuffer: microseconds after its sender's stamp that a received event is
    ///     played (0: as it arrives; `SessionHost.jitterBuffer`).
    ///   - events: told of each session up and down.
    /// - Throws: `NetworkError` naming the port in use or the sequencer missing.
    public init(name: String, address: String = "0.0.0.0", port: Int = 5004, clientName: String = "midihub network",
                sendsJournal: Bool = true, jitterBuffer: UInt64 = 0, events: @escaping @Sendable (Event) -> Void) throws(NetworkError) {
        let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = loops.next()
        var host = SessionHost(name: name, ssrc: UInt32.random(in: 1...UInt32.max))
        host.sendsJournal = sendsJournal
        host.jitterBuffer = jitterBuffer
        // A loop-bound value is made on its loop.
        guard let bound = try? loop.submit({ NIOLoopBound(SessionLoop(host: host, events: events), eventLoop: loop) }).wait()
        else {
            try? loops.syncShutdownGracefully()
            throw .ports("the network thread did not start")
        }
        let ports: SessionPorts, outgoing = OutgoingMIDI()
        do {
            ports = try SessionPorts(
                clientName: clientName, onOpened: { events(.up($0, port: $1)) },
                onMIDI: { id, messages in
                    if outgoing.add(messages, for: id) { loop.execute { bound.value.send(outgoing.take()) } }
                })
        } catch {
            try? loops.syncShutdownGracefully()
            throw error
        }
        do {
            let control = try Self.bind(address, port, on: loop, channel: .control, driver: bound)
            let data = try Self.bind(address, (control.localAddress?.port ?? port) + 1, on: loop, channel: .data, driver: bound)
            self.port = control.localAddress?.port ?? port
            try loop.submit {
                bound.value.attach(control: control, data: data, ports: ports)
            }.wait()
        } catch {
            ports.stop()
            try? loops.syncShutdownGracefully()
            throw .bind(address: address, port: port, reason: "\(error)")
        }
        (self.loops, self.loop, self.state, self.ports) = (loops, loop, bound, ports)
        _ = loop.scheduleRepeatedTask(initialDelay: .milliseconds(10), delay: .milliseconds(10)) { _ in
            bound.value.tick()
        }
    }

    private static func bind(_ address: String, _ port: Int, on loop: any EventLoop, channel: SessionChannel,
                             driver: NIOLoopBound<SessionLoop>) throws -> any Channel {
        try DatagramBootstrap(group: loop)
            .channelInitializer { $0.pipeline.addHandler(DatagramReader(channel: channel, driver: driver)) }
            .bind(host: address, port: port).wait()
    }

    /// Invites a peer; its session comes up when it accepts (and keeps being invited until
    /// it does, or `end`).
    /// - Thread: any but the event loop.
    @discardableResult
    public func invite(_ peer: PeerAddress) -> SessionID {
        let state = self.state
        return (try? loop.submit { state.value.invite(peer) }.wait()) ?? 0
    }

    /// Ends one session (BY to its peer when it is up, note-offs for what it left sounding);
    /// a peer this host invited is not invited again.
    /// - Thread: any but the event loop.
    public func end(_ id: SessionID) {
        let state = self.state
        try? loop.submit { state.value.end(id) }.wait()
    }

    /// Every session, oldest first.
    /// - Thread: any but the event loop.
    public func sessions() -> [SessionSummary] {
        let state = self.state
        return (try? loop.submit { state.value.host.summaries }.wait()) ?? []
    }

    /// Ends every session (BY to each peer, note-offs for what they left sounding), closes the
    /// ports and the sockets.
    /// - Thread: any but the event loop.
    public func stop() {
        let state = self.state
        try? loop.submit { state.value.stop() }.wait()
        ports.stop()
        try? loops.syncShutdownGracefully()
    }
}
