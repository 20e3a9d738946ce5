import Control
import Hub
import RTPMIDI

/// `network.status`, `network.connect` and `network.disconnect`: the sessions live in
/// `HubDaemon.network`; the peers the daemon invites are core state, saved with it.
/// - Thread: control (the control server's thread).
extension DaemonControl {
    func networkStatus() throws -> [NetworkSessionSummary] {
        daemon.network.status()
    }

    /// Adds `host` to the peers the daemon invites (kept across restarts); its session comes
    /// up when it answers (`session-up`). Its name is resolved on the network's queue.
    func networkConnect(_ host: String) throws {
        guard PeerAddress.parts(of: host) != nil else {
            throw ControlError(.invalidValue, "'\(host)' is not a peer address",
                               fix: "give HOST or HOST:PORT, e.g. 192.168.1.20 or laptop.local:5004")
        }
        try durably { try daemon.perform { [self] in daemon.feed(.invitePeer(host)) } }
    }

    /// Ends the sessions with `peer` (BY) and stops inviting it.
    func networkDisconnect(_ peer: String) throws {
        var (invited, found) = daemon.network.end(peer)
        if daemon.view.value.hub.network.connect.contains(peer) {
            (invited, found) = (invited.union([peer]), true)
        }
        guard found else {
            let known = daemon.network.status().map(\.peer)
            throw ControlError(.unknownPeer, "no network session with '\(peer)'",
                               fix: known.isEmpty ? "there is none ('midihub network status')"
                                                  : "name one of: " + known.joined(separator: ", "))
        }
        guard !invited.isEmpty else { return }
        try durably { try daemon.perform { [self] in daemon.feed(.stopInviting(invited)) } }
    }
}
