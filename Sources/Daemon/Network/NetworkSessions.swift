import Control
import Dispatch
import Foundation
import Hub
import NetworkMIDI
import RTPMIDI
import Synchronization

/// The daemon's RTP-MIDI sessions (docs/network.md#in-the-daemon): a `NetworkMIDI.NetworkHost`
/// (its event loop thread, and the sequencer client "midihub network" whose ports the hub sees
/// as any other) started, changed and stopped as the core's `NetworkSettings` ask. Binding
/// sockets, opening the client and resolving peers' names take time, so all of it runs on a
/// queue of its own, never on the MIDI thread; sessions coming up and ending become log lines
/// and the events `session-up` and `session-down`.
///
/// - Thread: any (`apply` returns at once; `status`, `end` and `stop` wait for the queue).
final class NetworkSessions: Sendable {
    /// What the queue keeps between two applies; the ports also change on the host's threads.
    private struct Running: Sendable {
        var host: NetworkHost?
        /// The listening host's announcement on the local network (Avahi), if it listens.
        var announcer: ServiceAnnouncer?
        var settings = NetworkSettings.none
        /// The session of each peer invited, by the text it was given as.
        var invited: [String: SessionID] = [:]
        /// Each session's port while it is up (`CLIENT:PORT`).
        var ports: [SessionID: String] = [:]
    }

    private let queue = DispatchQueue(label: "midihub-network")
    private let running = Mutex(Running())
    private let log: DaemonLog
    /// The networks invitations are accepted from (`serve --allow`).
    private let allowList: PeerAllowList

    init(log: DaemonLog, allowList: PeerAllowList) { (self.log, self.allowList) = (log, allowList) }

    /// Makes the sessions follow `settings` from now on: the host started, started again on
    /// other ports or stopped, new peers invited and peers gone from the list ended (BY).
    /// - Thread: any (the owner, or main as the daemon starts): returns at once.
    func apply(_ settings: NetworkSettings) {
        queue.async { [self] in reconcile(settings) }
    }

    /// The sessions as `network.status` shows them, oldest first.
    /// - Thread: control.
    func status() -> [NetworkSessionSummary] {
        queue.sync {
            let (host, ports) = running.withLock { ($0.host, $0.ports) }
            return (host?.sessions() ?? []).map { Self.summary($0, port: ports[$0.id]) }
        }
    }

    /// Ends the sessions with `peer` (a session's name or address) that the daemon did not
    /// invite; returns the invited peers' texts that name it (for the settings to drop) and
    /// whether anything matched.
    /// - Thread: control.
    func end(_ peer: String) -> (invited: Set<String>, found: Bool) {
        queue.sync {
            let (host, invited) = running.withLock { ($0.host, $0.invited) }
            guard let host else { return ([], false) }
            let matching = host.sessions().filter { $0.name == peer || $0.address.description == peer }
            var targets = Set(invited.filter { target, id in target == peer || matching.contains { $0.id == id } }.keys)
            for session in matching where !invited.values.contains(session.id) { host.end(session.id) }
            if invited[peer] != nil { targets.insert(peer) }
            return (targets, !matching.isEmpty || !targets.isEmpty)
        }
    }

    /// Ends every session and stops the host (the daemon stops).
    /// - Thread: control (main, while the daemon stops).
    func stop() {
        queue.sync { reconcile(.none) }
    }

    /// - Thread: control (the queue).
    private func reconcile(_ settings: NetworkSettings) {
        var current = running.withLock { $0 }
        if settings.isIdle || current.host == nil || !Self.sameHost(current.settings, settings) {
            if let host = current.host {
                current.announcer?.stop()
                host.stop()
                log.info("network: stopped")
            }
            current = Running()
            if !settings.isIdle {
                guard let host = start(settings) else { return running.withLock { $0 = Running() } }
                current.host = host
                current.announcer = announce(host, settings)
            }
        }
        current.settings = settings
        if let host = current.host {
            for (peer, id) in current.invited where !settings.connect.contains(peer) {
                host.end(id)
                current.invited[peer] = nil
            }
            for peer in settings.connect where current.invited[peer] == nil {
                do {
                    current.invited[peer] = host.invite(try PeerAddress.resolve(peer))
                    log.info("network: inviting \(peer)")
                } catch {
                    log.warning("network: not inviting \(peer): \(error)")
                }
            }
        }
        let result = current
        running.withLock {
            $0 = Running(host: result.host, announcer: result.announcer, settings: result.settings, invited: result.invited,
                         ports: $0.ports)
        }
    }

    /// Whether two settings run the same host (port, address, name, journal, jitter buffer).
    private static func sameHost(_ one: NetworkSettings, _ other: NetworkSettings) -> Bool {
        one.listen == other.listen && one.journal == other.journal && one.jitterBuffer == other.jitterBuffer
    }

    /// A listening host announced on the local network, its lines in the daemon's log.
    /// - Thread: control (the queue; it is stopped there too).
    private func announce(_ host: NetworkHost, _ settings: NetworkSettings) -> ServiceAnnouncer? {
        guard settings.listen != nil else { return nil }
        let name = settings.listen?.name ?? ProcessInfo.processInfo.hostName
        return ServiceAnnouncer(name: name, port: host.port) { [log] line in
            line.hasPrefix("announced") ? log.info("network: \(line)") : log.warning("network: \(line)")
        }
    }

    /// Starts a host for `settings`; logs where it listens, or why it cannot.
    /// - Thread: control (the queue).
    private func start(_ settings: NetworkSettings) -> NetworkHost? {
        let name = settings.listen?.name ?? ProcessInfo.processInfo.hostName
        let address = settings.listen?.address ?? "0.0.0.0"
        do {
            // Without `listen`, the system picks the ports: invited peers answer where the invitations came from.
            let host = try NetworkHost(name: name, address: address, port: settings.listen?.port ?? 0,
                                       sendsJournal: settings.journal,
                                       jitterBuffer: UInt64((settings.jitterBuffer ?? 0) * 1000),
                                       allowList: allowList) { [weak self] event in
                self?.report(event)
            }
            log.info(settings.listen == nil ? "network: sessions as '\(name)' from UDP \(address):\(host.port) (not listening)"
                                             : "network: listening as '\(name)' on UDP \(address):\(host.port) and \(host.port + 1)")
            return host
        } catch {
            log.error("network: no sessions: \(error)")
            return nil
        }
    }

    /// A session up or down: its port kept for `status`, a log line, an event.
    /// - Thread: control (the host's: the sequencer thread for `up`, the event loop for `down`).
    private func report(_ event: NetworkHost.Event) {
        switch event {
        case .up(let session, let port):
            running.withLock { $0.ports[session.id] = port.description }
            log.info("network: session up: '\(session.name)' at \(session.address), port \(port) '\(session.name)'")
            log.publish(.sessionUp(NetworkSessionChange(peer: session.name, address: session.address.description,
                                                        port: port.description)))
        case .down(let session, let reason):
            running.withLock { $0.ports[session.id] = nil }
            log.info("network: session down: '\(session.name)' at \(session.address): \(reason)")
            log.publish(.sessionDown(NetworkSessionChange(peer: session.name, address: session.address.description,
                                                          reason: reason)))
        }
    }

    /// A session as the control protocol shows it.
    static func summary(_ session: SessionSummary, port: String?) -> NetworkSessionSummary {
        NetworkSessionSummary(
            peer: session.name, address: session.address.description, state: session.state, invited: session.invited,
            port: port, latencyMs: session.latency.map { Double($0) / 1000 }, jitterMs: session.jitter.map { Double($0) / 1000 },
            packetsSent: session.packetsSent, packetsReceived: session.packetsReceived, packetsLate: session.packetsLate,
            packetsLost: session.packetsLost,
            packetsRepaired: session.packetsRepaired, packetsMalformed: session.packetsMalformed)
    }
}
