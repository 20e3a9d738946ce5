import ArgumentParser
import Control
import Foundation

/// `midihub network status`: the running daemon's RTP-MIDI sessions.
struct NetworkStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "List the daemon's network sessions: peers, ports, latency, packets lost and repaired.",
        discussion: """
            One line per session of the running daemon: the peer's name and address, the \
            session's state (up; inviting: the daemon waits for the peer's answer; waiting: \
            it invites again soon), its port, the latency (half the clock sync's round trip) \
            and the jitter (how much the packets' transit varies), and the packets received, lost on the way and repaired by the recovery journal \
            (docs/network.md). Sessions 'midihub network listen' or 'connect --foreground' \
            keep in their own process are not the daemon's: 'midihub ports' shows their ports.

            Examples:
              midihub network status
              midihub network status --json
            """
    )

    @Flag(help: "One JSON array of session objects (as the control protocol's network.status).")
    var json = false

    func run() throws {
        let sessions = try SetupCommandSupport.askDaemon("network status", client: "midihub network") { try $0.networkStatus() }
        if json { return try printJSON(sessions) }
        if sessions.isEmpty { print("no network sessions (a patch's network: section starts them, docs/network.md)") }
        for session in sessions { print(Self.line(session)) }
    }

    /// `'rack' at 192.168.1.20:5004: up, port 129:0, latency 0.4 ms, jitter 0.1 ms, packets: 840 received, 3 lost, 3 repaired`.
    static func line(_ session: NetworkSessionSummary) -> String {
        var parts = [session.state]
        if let port = session.port { parts.append("port \(port)") }
        if let latency = session.latencyMs { parts.append("latency \(Self.milliseconds(latency))") }
        if let jitter = session.jitterMs { parts.append("jitter \(Self.milliseconds(jitter))") }
        parts.append("packets: \(session.packetsReceived) received, \(session.packetsLost) lost, \(session.packetsRepaired) repaired")
        return "'\(session.peer)' at \(session.address)\(session.invited ? " (invited)" : ""): " + parts.joined(separator: ", ")
    }

    /// `0.4 ms`: one decimal, whatever the locale.
    static func milliseconds(_ value: Double) -> String {
        value.formatted(.number.precision(.fractionLength(1)).locale(Locale(identifier: "en_US_POSIX")).grouping(.never)) + " ms"
    }
}

/// `midihub network disconnect PEER`: ends one of the daemon's sessions.
struct NetworkDisconnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "End one of the daemon's network sessions, and stop inviting that peer.",
        discussion: """
            PEER is the session's name or address as 'midihub network status' shows them, or \
            the HOST[:PORT] the daemon was told to invite. The peer hears the end, the notes \
            it left sounding end, its port goes away, and the daemon no longer invites it \
            (also after a restart). A peer its patch's network: section lists is invited again \
            when the patch is loaded again.

            Examples:
              midihub network disconnect 192.168.1.20
            """
    )

    @Argument(help: "The peer: its session name, its address, or the HOST[:PORT] it was invited as.")
    var peer: String

    func run() throws {
        try SetupCommandSupport.askDaemon("network disconnect", client: "midihub network") { try $0.networkDisconnect(peer) }
        print("ended the session with \(peer)")
    }
}
