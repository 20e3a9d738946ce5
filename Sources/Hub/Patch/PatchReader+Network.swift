import RTPMIDI

/// The `network:` section: RTP-MIDI sessions the daemon keeps (docs/patch-format.md#network).
/// - Thread: any (a plain value).
extension PatchReader {
    func network(_ node: YAMLNode) throws(PatchError) -> NetworkSettings {
        let fields = try mapping(node, "network")
        try expectKeys(fields, ["listen", "connect", "journal", "jitter_buffer"])
        var settings = NetworkSettings()
        if let listen = fields["listen"] { settings.listen = try self.listen(listen) }
        if let connect = fields["connect"] {
            for item in try sequence(connect, "network.connect") {
                let peer = try string(item, "a peer address")
                guard PeerAddress.parts(of: peer) != nil else {
                    throw error(at: item, "'\(peer)' is not a peer address",
                                fix: "write HOST or HOST:PORT, e.g. 192.168.1.20 or laptop.local:5004")
                }
                guard !settings.connect.contains(peer) else {
                    throw error(at: item, "peer '\(peer)' is listed twice", fix: "list each peer once")
                }
                settings.connect.append(peer)
            }
        }
        if let journal = fields["journal"] { settings.journal = try flag(journal, "journal") }
        if let buffer = fields["jitter_buffer"] {
            let milliseconds = try number(buffer, "network.jitter_buffer")
            guard NetworkSettings.jitterBuffers.contains(milliseconds) else {
                throw error(at: buffer, "network.jitter_buffer \(buffer.scalar?.string ?? "") is outside 0…1000 ms",
                            fix: "write the milliseconds to hold received MIDI, e.g. 5")
            }
            settings.jitterBuffer = milliseconds > 0 ? milliseconds : nil
        }
        return settings
    }

    /// The `osc:` section: `osc: 9000` (on 127.0.0.1) or `osc: 0.0.0.0:9000` (docs/osc.md).
    func osc(_ node: YAMLNode) throws(PatchError) -> NetworkSettings.OSCListen {
        let text = node.scalar?.string ?? ""
        if let port = Int(text), (1...65_535).contains(port) { return .init(port: port) }
        guard text.contains(":"), let (host, port) = PeerAddress.parts(of: text, defaultPort: 0), port > 0 else {
            throw error(at: node, "osc '\(text)' is not a port or ADDRESS:PORT",
                        fix: "write `osc: 9000` (this machine only) or `osc: 0.0.0.0:9000` (every network)")
        }
        return .init(host: host, port: Int(port))
    }

    /// `listen: 5004` or `listen: {port: 5004, name: rack, address: 0.0.0.0}`.
    private func listen(_ node: YAMLNode) throws(PatchError) -> NetworkSettings.Listen {
        guard let fields = node.mapping else { return .init(port: try port(node)) }
        try expectKeys(fields, ["port", "name", "address"])
        return .init(port: try fields["port"].map { node throws(PatchError) in try port(node) } ?? NetworkSettings.defaultPort,
                     name: try fields["name"].map { node throws(PatchError) in try string(node, "a session name") },
                     address: try fields["address"].map { node throws(PatchError) in try string(node, "a local address") })
    }

    private func port(_ node: YAMLNode) throws(PatchError) -> Int {
        guard node.scalar != nil else {
            throw error(at: node, "network.listen must be a port or `{port: 5004, name: rack}`",
                        fix: "write `listen: 5004`, or `listen: {port: 5004, name: rack}`")
        }
        let range = NetworkSettings.ports
        guard let text = node.scalar?.string, let value = Int(text), range.contains(value) else {
            throw error(at: node, "listen port \(node.scalar?.string ?? "") is not a UDP port with one above it",
                        fix: "write a port from \(range.lowerBound) to \(range.upperBound), usually 5004 (the data port is the next)")
        }
        return value
    }
}
