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

            Where avahi-daemon runs, the sessions are announced on the local network \
            (_apple-midi._udp): a Mac lists this machine in Audio MIDI Setup's Network window, \
            and 'midihub network browse' lists the machines that announce theirs.
            """,
        subcommands: [NetworkListenCommand.self, NetworkConnectCommand.self, NetworkBrowseCommand.self,
                      NetworkStatusCommand.self, NetworkDisconnectCommand.self]
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

    @Option(help: ArgumentHelp(
        "Play what a peer sends this many milliseconds after the moment it was played there, keeping its spacing (0: as it arrives).",
        valueName: "ms"))
    var jitterBuffer = 0.0

    /// Whether any option differs from its default (they set the command's own host).
    var isCustomized: Bool { name != nil || port != 5004 || address != "0.0.0.0" || noJournal || jitterBuffer != 0 }

    func validate() throws {
        guard (1...65534).contains(port) else {
            throw ValidationError("--port \(port) is not a UDP port with one above it (1 to 65534)")
        }
        guard (0...1000).contains(jitterBuffer) else {
            throw ValidationError("--jitter-buffer \(jitterBuffer) is not between 0 and 1000 ms")
        }
    }

    /// Starts the host, printing a line for each session that comes up or ends, and
    /// announces it on the network (`ServiceAnnouncer`). Ctrl-C is trapped first: once the
    /// listening line is out, it ends the sessions cleanly.
    func start() throws -> (NetworkHost, ServiceAnnouncer) {
        SignalTrap.install()
        let name = name ?? ProcessInfo.processInfo.hostName
        do {
            let host = try NetworkHost(name: name, address: address, port: port, sendsJournal: !noJournal,
                                       jitterBuffer: UInt64(jitterBuffer * 1000)) { event in
                switch event {
                case .up(let session, let port):
                    printNow("session up: '\(session.name)' at \(session.address), port \(port) '\(session.name)'")
                case .down(let session, let reason):
                    printNow("session down: '\(session.name)' at \(session.address): \(reason)")
                }
            }
            printNow("listening as '\(name)' on UDP \(address):\(host.port) and \(host.port + 1) (Ctrl-C ends)")
            let announcer = ServiceAnnouncer(name: name, port: host.port) { line in
                line.hasPrefix("announced") ? printNow(line) : printError("midihub: \(line)")
            }
            return (host, announcer)
        } catch {
            throw CLIError(error.description, fix: nil)
        }
    }

    /// Runs until SIGINT or SIGTERM (trapped by `start`), then withdraws the announcement
    /// and ends every session.
    func run(_ running: (NetworkHost, ServiceAnnouncer)) {
        while SignalTrap.caught == nil { usleep(50_000) }
        running.1.stop()
        running.0.stop()
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

    @Argument(help: "The peer: HOST, HOST:PORT or [IPv6]:PORT (port 5004 when not given), or the name of a session announced on the network (see browse).")
    var peer: String

    @Flag(help: "Keep the session in this command until Ctrl-C, even when the daemon runs.")
    var foreground = false

    @OptionGroup var host: NetworkHostOptions

    func run() throws {
        let address: PeerAddress
        var announced = false
        do {
            address = try PeerAddress.resolve(peer)
        } catch .unknownHost, .badAddress where !peer.contains(":") {
            address = try announcedSession(named: peer)
            announced = true
        } catch {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
        // An announced session's name means nothing to the daemon: it gets the address.
        if !foreground, try handedToDaemon(announced ? address.description : peer) { return }
        let running = try host.start()
        running.0.invite(address)
        host.run(running)
    }

    /// Asks the running daemon to invite `peer`; false when no daemon runs.
    private func handedToDaemon(_ peer: String) throws -> Bool {
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
            throw CLIError("--name, --port, --address, --no-journal and --jitter-buffer set this command's own session, and the daemon runs",
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

    /// The address of the session announced on the network as `name` (a Mac's session name).
    private func announcedSession(named name: String) throws -> PeerAddress {
        let sessions: [AnnouncedSession]
        do {
            sessions = try SessionBrowser.find(seconds: 3)
        } catch {
            throw CLIError(NetworkError.unknownPeer(name).description, fix: nil, exitCode: CLIError.badInput)
        }
        guard let session = sessions.first(where: { $0.name == name }),
              let address = try? PeerAddress.resolve("\(session.address):\(session.port)")
        else { throw CLIError(NetworkError.unknownPeer(name).description, fix: nil, exitCode: CLIError.badInput) }
        return address
    }
}
