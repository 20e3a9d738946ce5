import ArgumentParser
import Control
import Foundation
import NetworkMIDI
import RTPMIDI

/// `midihub network`: RTP-MIDI sessions with other machines (docs/network.md).
struct NetworkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Share MIDI with other machines over RTP-MIDI (Apple's network sessions).",
        discussion: """
            Each session with another machine (a Mac's Audio MIDI Setup, Windows rtpMIDI, iOS, \
            another midihub) is one ALSA sequencer port of the client 'midihub network', named \
            after the peer: connect it like any other port, and the hub's rules, recording and \
            learn see it. 'listen' and 'connect' run sessions in the command itself while it \
            runs; Ctrl-C ends them (the peers are told, and notes they left sounding are \
            ended). A running daemon keeps sessions of its own, as its patch's 'network:' \
            section says (docs/network.md): 'connect' hands it the peer, 'status' lists its \
            sessions, 'disconnect' ends one.

            Examples:
              midihub network listen --name studio
              midihub network connect 192.168.1.20
              midihub network status
            """,
        subcommands: [NetworkListenCommand.self, NetworkConnectCommand.self, NetworkStatusCommand.self,
                      NetworkDisconnectCommand.self]
    )
}

/// What `listen` and `connect` share: the host's name and ports.
struct NetworkHostOptions: ParsableArguments {
    @Option(help: "The session name other machines show (default: this machine's host name).")
    var name: String?

    @Option(help: "The UDP control port; the data port is the next one.")
    var port: Int = 5004

    @Option(help: "The local address to listen on (0.0.0.0: every IPv4 interface).")
    var address = "0.0.0.0"

    @Flag(help: "Send packets without the recovery journal that repairs lost ones: only to hear what it repairs.")
    var noJournal = false

    /// Whether any option differs from its default (they set the command's own host).
    var isCustomized: Bool { name != nil || port != 5004 || address != "0.0.0.0" || noJournal }

    func validate() throws {
        guard (1...65534).contains(port) else {
            throw ValidationError("--port \(port) is not a UDP port with one above it (1 to 65534)")
        }
    }

    /// Starts the host, printing a line for each session that comes up or ends. Ctrl-C is
    /// trapped first: once the listening line is out, it ends the sessions cleanly.
    func start() throws -> NetworkHost {
        SignalTrap.install()
        let name = name ?? ProcessInfo.processInfo.hostName
        do {
            let host = try NetworkHost(name: name, address: address, port: port, sendsJournal: !noJournal) { event in
                switch event {
                case .up(let session, let port):
                    printNow("session up: '\(session.name)' at \(session.address), port \(port) '\(session.name)'")
                case .down(let session, let reason):
                    printNow("session down: '\(session.name)' at \(session.address): \(reason)")
                }
            }
            printNow("listening as '\(name)' on UDP \(address):\(host.port) and \(host.port + 1) (Ctrl-C ends)")
            return host
        } catch {
            throw CLIError(error.description, fix: nil)
        }
    }

    /// Runs until SIGINT or SIGTERM (trapped by `start`), then ends every session.
    func run(_ host: NetworkHost) {
        while SignalTrap.caught == nil { usleep(50_000) }
        host.stop()
    }
}

/// `midihub network listen`: accept invitations from other machines.
struct NetworkListenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Accept sessions other machines start, until Ctrl-C.",
        discussion: """
            A Mac adds this machine in Audio MIDI Setup's Network window (Directory: + with \
            this machine's address and port 5004) and connects; the session's port appears.

            Example:
              midihub network listen --name studio --port 5004
            """
    )

    @OptionGroup var host: NetworkHostOptions

    func run() throws {
        host.run(try host.start())
    }
}

/// `midihub network connect`: invite another machine, through the running daemon when one
/// runs (the session then lives there and comes back after a restart), else in the command.
struct NetworkConnectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Start a session with another machine: in the daemon when it runs, else here until Ctrl-C.",
        discussion: """
            Invites the peer every second until it answers; when it goes away, invites it \
            again until it comes back. With a daemon running, the daemon invites the peer and \
            keeps the session, also after it restarts ('midihub network status' shows it, \
            'midihub network disconnect' ends it). Without one, or with --foreground, the \
            command keeps the session itself until Ctrl-C, and accepts sessions others start, \
            as listen does.

            Examples:
              midihub network connect 192.168.1.20:5004
              midihub network connect 192.168.1.20 --foreground --name laptop
            """
    )

    @Argument(help: "The peer: HOST, HOST:PORT or [IPv6]:PORT (port 5004 when not given).")
    var peer: String

    @Flag(help: "Keep the session in this command until Ctrl-C, even when the daemon runs.")
    var foreground = false

    @OptionGroup var host: NetworkHostOptions

    func run() throws {
        let address: PeerAddress
        do {
            address = try PeerAddress.resolve(peer)
        } catch {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
        if !foreground, try handedToDaemon() { return }
        let running = try host.start()
        running.invite(address)
        host.run(running)
    }

    /// Asks the running daemon to invite the peer; false when no daemon runs.
    private func handedToDaemon() throws -> Bool {
        let client: ControlClient
        do {
            client = try ControlClient(timeout: 10)
            try client.hello(client: "midihub network")
        } catch where error.isDaemonNotRunning {
            return false
        } catch {
            throw SetupCommandSupport.cliError(error, needing: "network connect")
        }
        guard !host.isCustomized else {
            throw CLIError("--name, --port, --address and --no-journal set this command's own session, and the daemon runs",
                           fix: "add --foreground to keep the session here, or set the daemon's in its patch's network: section",
                           exitCode: CLIError.badInput)
        }
        do {
            try client.networkConnect(peer)
        } catch {
            throw SetupCommandSupport.cliError(error, needing: "network connect")
        }
        print("the daemon invites \(peer): the session comes up when it answers, and after a restart ('midihub network status')")
        return true
    }
}
