import Remote

extension HubDaemon {
    /// Starts the web remote when `options.remote` asks for one: its token (made at the first
    /// start, kept beside the state), its HTTP port, and `remote.json` beside the control
    /// socket for `midihub remote`. Without one, removes a `remote.json` a killed daemon left.
    /// Logs where it listens (never the token), with a warning when beyond this machine.
    /// - Throws: `DaemonError.control` when the token file or the port cannot be used.
    /// - Thread: control (main, while the daemon starts).
    func startRemote() throws(DaemonError) -> RemoteServer? {
        RemoteInfo.remove(for: options.socket)
        guard let address = options.remote else { return nil }
        let tokenFile = RemoteToken.path(besideState: options.statePath)
        let server: RemoteServer
        do {
            server = RemoteServer(address: address, socket: options.socket, token: try RemoteToken.loadOrCreate(at: tokenFile))
            let bound = try server.start()
            try RemoteInfo(address: bound, tokenFile: tokenFile).write(for: options.socket)
            log.info("remote: serving http://\(bound)/ (its URL with the token: midihub remote)")
            if !bound.isLoopback {
                log.warning("remote: listening on \(bound), beyond this machine: whoever on the network has the token "
                    + "drives the hub, over plain HTTP (fix: use it on a trusted network or behind a TLS proxy, docs/remote.md)")
            }
        } catch {
            throw .control(error.description)
        }
        return server
    }

    /// Stops the web remote, if one runs, and removes `remote.json`.
    /// - Thread: control (main, while the daemon stops).
    func stopRemote() {
        remote?.stop()
        remote = nil
        RemoteInfo.remove(for: options.socket)
    }
}
