import ALSA
import ArgumentParser

/// The two ports `connect` and `disconnect` take.
struct ConnectionOptions: ParsableArguments {
    @Argument(help: "The port MIDI comes from (a source): 20:0, a client or port name, or a prefix.")
    var source: String

    @Argument(help: "The port MIDI goes to (a destination).")
    var destination: String

    /// Opens the sequencer and resolves both ports.
    func resolve() throws -> (session: SequencerSession, source: SeqAddress, destination: SeqAddress) {
        let session = try SequencerSession()
        let from = try session.resolve(source, as: .source)
        let to = try session.resolve(destination, as: .destination)
        return (session, from.address, to.address)
    }
}

/// `midihub connect SRC DST`: a kernel subscription between two ports, like `aconnect`.
struct ConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Connect a source port to a destination port (like aconnect).",
        discussion: """
            The connection is made in the kernel and stays after midihub exits; \
            'midihub disconnect' removes it. Connecting ports that are already connected \
            changes nothing and succeeds.

            Examples:
              midihub connect 20:0 128:0
              midihub connect 'Virtual Raw MIDI 1-0' 'Midi Through'
              midihub connect virt:0 fluid
            """
    )

    @OptionGroup var ports: ConnectionOptions

    func run() throws {
        let (session, source, destination) = try ports.resolve()
        let existing = try session.otherPorts().first { $0.address == source }?.connectedTo ?? []
        guard !existing.contains(destination) else {
            printError("midihub: \(source) is already connected to \(destination)")
            return
        }
        try session.client.subscribe(sender: source, destination: destination)
    }
}

/// `midihub disconnect SRC DST`: removes a subscription, like `aconnect -d`.
struct DisconnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disconnect",
        abstract: "Remove the connection from a source port to a destination port (like aconnect -d).",
        discussion: """
            Ports are named as for 'midihub connect'.

            Examples:
              midihub disconnect 20:0 128:0
              midihub disconnect 'Virtual Raw MIDI 1-0' 'Midi Through'
            """
    )

    @OptionGroup var ports: ConnectionOptions

    func run() throws {
        let (session, source, destination) = try ports.resolve()
        let existing = try session.otherPorts().first { $0.address == source }?.connectedTo ?? []
        guard existing.contains(destination) else {
            throw CLIError("\(source) is not connected to \(destination)",
                           fix: "run 'midihub ports' to see the connections", exitCode: CLIError.badInput)
        }
        try session.client.unsubscribe(sender: source, destination: destination)
    }
}
