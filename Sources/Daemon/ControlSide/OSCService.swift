import Control
import Dispatch
import Foundation
import Hub
import NetworkMIDI
import OSCSurface
import RTPMIDI
import Synchronization

/// The daemon's OSC server (docs/osc.md) where `serve --osc` or the patch's `osc:` asks for
/// one: started, moved to another address or stopped as the patch's setting changes, on a
/// queue of its own (binding sockets and opening its sequencer client take time; never on
/// the MIDI thread). `serve --osc` wins over any patch. Listening beyond this machine it is
/// announced through Avahi.
///
/// - Thread: any (`apply` returns at once; `start` and `stop` wait for the queue).
final class OSCService: Sendable {
    private struct Running: Sendable {
        var server: OSCServer?
        var announcer: ServiceAnnouncer?
        var address: ListenAddress?
    }

    private let queue = DispatchQueue(label: "midihub-osc-service")
    private let running = Mutex(Running())
    /// `serve --osc`'s address: it wins over the patch's.
    private let fixed: ListenAddress?
    private let socket: ControlSocketPath
    private let allowList: PeerAllowList
    private let log: DaemonLog

    init(fixed: ListenAddress?, socket: ControlSocketPath, allowList: PeerAllowList, log: DaemonLog) {
        (self.fixed, self.socket, self.allowList, self.log) = (fixed, socket, allowList, log)
    }

    /// Starts the server `serve --osc` asks for, if it does.
    /// - Throws: `DaemonError.control` when its port cannot be bound: the daemon does not start.
    /// - Thread: control (main, while the daemon starts).
    func start() throws(DaemonError) {
        guard let fixed else { return }
        let result: Result<Void, DaemonError> = queue.sync { Result { () throws(DaemonError) in try listen(on: fixed) } }
        try result.get()
    }

    /// Follows the patch's `osc:` from now on (nothing while `serve --osc` decides).
    /// - Thread: any (the owner, as the core's `network` effect comes): returns at once.
    func apply(_ setting: NetworkSettings.OSCListen?) {
        guard fixed == nil else { return }
        let address = setting.map { ListenAddress(host: $0.host, port: $0.port) }
        queue.async { [self] in
            guard running.withLock({ $0.address }) != address else { return }
            stopRunning()
            guard let address else { return }
            do throws(DaemonError) {
                try listen(on: address)
            } catch {
                log.warning("\(error.description) (the patch's osc: is not served)")
            }
        }
    }

    /// Stops the server (the daemon stops).
    /// - Thread: control (main, while the daemon stops).
    func stop() {
        queue.sync { stopRunning() }
    }

    /// - Thread: control (the queue).
    private func listen(on address: ListenAddress) throws(DaemonError) {
        guard let server = OSCServer(address: address, socket: socket, allowList: allowList, log: { [log] line in
            if line.hasPrefix("warning: ") { log.warning(String(line.dropFirst(9))) } else { log.info(line) }
        }) else {
            throw .control("no file descriptors left for the OSC server (fix: raise the limit, ulimit -n)")
        }
        let bound: ListenAddress
        do {
            bound = try server.start()
        } catch {
            throw .control(error.description)
        }
        log.info("osc: taking OSC over UDP and TCP on \(bound) (docs/osc.md)")
        if !allowList.networks.isEmpty {
            log.info("osc, network: taking peers only from \(allowList) and this machine")
        } else if !bound.isLoopback {
            log.warning("osc: listening on \(bound), beyond this machine: whoever on the network reaches the port drives "
                + "the hub (fix: use it on a trusted network, or name it with --allow)")
        }
        var announcer: ServiceAnnouncer?
        if !bound.isLoopback {
            announcer = ServiceAnnouncer(name: "midihub on \(ProcessInfo.processInfo.hostName)", port: bound.port,
                                         types: ServiceAnnouncer.osc) { [log] line in
                line.hasPrefix("announced") ? log.info("osc: \(line)") : log.warning("osc: \(line)")
            }
        }
        running.withLock { $0 = Running(server: server, announcer: announcer, address: address) }
    }

    /// - Thread: control (the queue).
    private func stopRunning() {
        let stopped = running.withLock { current in
            defer { current = Running() }
            return current
        }
        guard let server = stopped.server else { return }
        stopped.announcer?.stop()
        server.stop()
        log.info("osc: stopped")
    }
}
