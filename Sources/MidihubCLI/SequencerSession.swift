import ALSA

/// What every sequencer subcommand starts with: an open client named `midihub`
/// and aconnect-style port names resolved against the current port list.
///
/// - Thread: the main thread (it owns the client).
struct SequencerSession {
    let client: SeqClient

    init(name: String = "midihub") throws {
        client = try SeqClient(name: name)
    }

    /// Every port except this client's own.
    func otherPorts() throws -> [SeqPortInfo] {
        try client.ports().filter { $0.address.client != client.clientID }
    }

    /// The port `name` means, checked to work in `role`.
    /// - Throws: `PortResolutionError` (exit 2) or a `CLIError` when the port has the wrong direction.
    func resolve(_ name: String, as role: PortRole) throws -> SeqPortInfo {
        let port = try PortResolver(ports: otherPorts()).resolve(name)
        let fits = role == .source ? port.isReadable : port.isWritable
        guard fits else {
            throw CLIError("\(port.address) '\(port.portName)' is not a \(role) port (\(port.direction.rawValue))",
                           fix: "pick a \(role) port; 'midihub ports' shows each port's direction",
                           exitCode: CLIError.badInput)
        }
        return port
    }

    /// Resolves a comma-separated list (`20:0,Synth`), in order, without duplicates.
    func resolveList(_ names: String, as role: PortRole) throws -> [SeqPortInfo] {
        var ports: [SeqPortInfo] = []
        for name in names.split(separator: ",") {
            let port = try resolve(String(name), as: role)
            if !ports.contains(where: { $0.address == port.address }) { ports.append(port) }
        }
        return ports
    }

    /// A new source port of this client, connected to every destination, as
    /// `aplaymidi` does: kernel MIDI ports (snd-virmidi, USB MIDI) open their
    /// device only while subscribed, and drop events from unconnected senders.
    /// The connections end with the client.
    func makeSendingPort(name: String, connectedTo destinations: [SeqAddress]) throws -> SeqPort {
        let port = try client.createPort(name: name, capabilities: .source)
        for destination in destinations {
            try client.subscribe(sender: port.address, destination: destination)
        }
        return port
    }

    enum PortRole: String, CustomStringConvertible {
        /// Readable: MIDI comes out of it.
        case source
        /// Writable: MIDI goes into it.
        case destination

        var description: String { rawValue }
    }
}
