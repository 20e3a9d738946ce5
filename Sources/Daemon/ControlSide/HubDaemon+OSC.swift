import Control
import OSCSurface

extension HubDaemon {
    /// Starts the OSC server when `options.osc` asks for one, with a line saying where it
    /// listens (a warning when beyond this machine: whoever reaches the port drives the hub).
    /// - Throws: `DaemonError.control` when the port cannot be bound.
    /// - Thread: control (main, while the daemon starts).
    func startOSC() throws(DaemonError) -> OSCServer? {
        guard let address = options.osc else { return nil }
        guard let server = OSCServer(address: address, socket: options.socket, allowList: options.allowList, log: { [log] line in
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
        if !options.allowList.networks.isEmpty {
            log.info("osc, network: taking peers only from \(options.allowList) and this machine")
        } else if !bound.isLoopback {
            log.warning("osc: listening on \(bound), beyond this machine: whoever on the network reaches the port drives "
                + "the hub (fix: use it on a trusted network)")
        }
        return server
    }

    /// Stops the OSC server, if one runs.
    /// - Thread: control (main, while the daemon stops).
    func stopOSC() {
        osc?.stop()
        osc = nil
    }
}
