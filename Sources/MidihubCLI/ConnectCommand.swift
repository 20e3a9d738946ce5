import ALSA
import ArgumentParser
import Control

/// The two ports `connect` and `disconnect` take.
struct ConnectionOptions: ParsableArguments {
    @Argument(help: "The port MIDI comes from (a source): 20:0, a client or port name, a prefix, or jack:CLIENT:PORT.",
              completion: NameCompletion.ports(.source))
    var source: String

    @Argument(help: "The port MIDI goes to (a destination).", completion: NameCompletion.ports(.destination))
    var destination: String

    /// Opens the sequencer and resolves both ports.
    func resolve() throws -> (session: SequencerSession, source: SeqAddress, destination: SeqAddress) {
        let session = try SequencerSession()
        let from = try session.resolve(source, as: .source)
        let to = try session.resolve(destination, as: .destination)
        return (session, from.address, to.address)
    }

    /// True when an end is a JACK port (`jack:CLIENT:PORT`): only the running daemon reaches those.
    var namesJackPort: Bool {
        [source, destination].contains { if case .jack = Endpoint(parsing: $0) { true } else { false } }
    }

    /// Asks the running daemon to connect (or disconnect) the two ports; it keeps the
    /// change as a runtime edit.
    func editThroughDaemon(connecting: Bool) throws {
        do {
            let client = try ControlClient(timeout: 10)
            _ = try client.hello(client: "midihub cli")
            if connecting {
                try client.connect(source, to: destination)
            } else {
                try client.disconnect(source, from: destination)
            }
        } catch where error.isDaemonNotRunning {
            throw CLIError("JACK ports are connected through the midihub daemon, and it is not running",
                           fix: "start it: systemctl --user start midihub (or midihub serve)", exitCode: CLIError.badInput)
        } catch {
            let exitCode = if case .rejected = error { CLIError.badInput } else { CLIError.runtimeFailure }
            throw CLIError(error.problem, fix: error.fix, exitCode: exitCode)
        }
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
            changes nothing and succeeds. With a JACK port (jack:CLIENT:PORT) on either \
            side, the running daemon makes the connection (JACK to ALSA, ALSA to JACK, \
            JACK to JACK) and keeps it as a runtime edit.

            Examples:
              midihub connect 20:0 128:0
              midihub connect 'Virtual Raw MIDI 1-0' 'Midi Through'
              midihub connect 'Virtual Raw MIDI 1-0:0' fluid
              midihub connect 20:0 jack:fluidsynth:midi_00
            """
    )

    @OptionGroup var ports: ConnectionOptions

    func run() throws {
        if ports.namesJackPort { return try ports.editThroughDaemon(connecting: true) }
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
            Ports are named as for 'midihub connect'; with a JACK port on either side, \
            the running daemon breaks the connection and keeps that as a runtime edit.

            Examples:
              midihub disconnect 20:0 128:0
              midihub disconnect 'Virtual Raw MIDI 1-0' 'Midi Through'
            """
    )

    @OptionGroup var ports: ConnectionOptions

    func run() throws {
        if ports.namesJackPort { return try ports.editThroughDaemon(connecting: false) }
        let (session, source, destination) = try ports.resolve()
        let existing = try session.otherPorts().first { $0.address == source }?.connectedTo ?? []
        guard existing.contains(destination) else {
            throw CLIError("\(source) is not connected to \(destination)",
                           fix: "run 'midihub ports' to see the connections", exitCode: CLIError.badInput)
        }
        try session.client.unsubscribe(sender: source, destination: destination)
    }
}
