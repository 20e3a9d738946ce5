import ALSA
import ArgumentParser
import Foundation

/// `midihub monitor [PORT...]`: prints events as they arrive, like `aseqdump`.
struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Print MIDI events from ports as they arrive (like aseqdump).",
        discussion: """
            Without ports, monitors every readable port except System and midihub's own. \
            Name the System announce port (0:1) to see clients and ports come and go and \
            connections made or broken. 'time' is seconds since monitoring began, stamped \
            by the kernel on arrival and never decreasing (a stamp a few microseconds \
            behind the last one, as the kernel's queue clock can give, shows as the last \
            one); channels are 1…16.

            When ready, one line goes to stderr: 'midihub: monitoring 20:0, 21:0'. Ctrl-C \
            or SIGTERM ends it with status 0.

            --json prints one object per line, flushed per line; a note-on:
              {"time":1.234000,"source":"20:0","type":"note-on","channel":1,"note":60,
               "velocity":100}

            Examples:
              midihub monitor
              midihub monitor 'Virtual Raw MIDI 1-0' --json
              midihub monitor 0:1        # port and connection announcements
            """
    )

    @Argument(help: "Ports to monitor (default: every readable port).", completion: NameCompletion.ports(.source))
    var ports: [String] = []

    @Flag(help: "Print one JSON object per line.")
    var json = false

    func run() throws {
        SignalTrap.install()
        let session = try SequencerSession()
        let client = session.client
        let queue = try client.makeQueue(name: "midihub monitor")
        let input = try client.createPort(name: "monitor", capabilities: .destination, timestampQueue: queue)
        try client.start(queue)
        let sources = try sourcesToMonitor(session)
        for source in sources {
            try client.subscribe(sender: source, destination: input.address)
        }
        printError("midihub: monitoring " + (sources.isEmpty ? "no ports" : sources.map(\.description).joined(separator: ", ")))
        if !json { emit(EventFormatter.textHeader) }
        var clock = ArrivalClock()
        while SignalTrap.caught == nil {
            guard let event = try client.receive(milliseconds: 500) else { continue }
            let seconds = clock.time(of: event.time)?.seconds ?? 0
            emit(json ? EventFormatter.json(event, seconds: seconds) : EventFormatter.text(event, seconds: seconds))
        }
    }

    private func sourcesToMonitor(_ session: SequencerSession) throws -> [SeqAddress] {
        if ports.isEmpty {
            return try session.otherPorts().filter { $0.isReadable && !$0.isSystem }.map(\.address)
        }
        var addresses: [SeqAddress] = []
        for name in ports {
            let address = try session.resolve(name, as: .source).address
            if !addresses.contains(address) { addresses.append(address) }
        }
        return addresses
    }

    /// One line to stdout, flushed at once so pipes see it immediately.
    private func emit(_ line: String) {
        printNow(line)
    }
}
