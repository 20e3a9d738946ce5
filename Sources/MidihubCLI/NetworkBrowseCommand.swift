import ArgumentParser
import Foundation
import NetworkMIDI

/// `midihub network browse`: the session hosts announced on the local network.
struct NetworkBrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "List the RTP-MIDI sessions other machines announce on the local network.",
        discussion: """
            Asks the Avahi daemon for the _apple-midi._udp services on the network (a Mac's \\
            Audio MIDI Setup session, rtpMIDI on Windows, another midihub) and prints each one's \\
            name, address and port, one per line. 'midihub network connect NAME' connects to \
            one by the name it lists; its address works as well. Without avahi-daemon it fails \
            with one line saying so (status 1): give the peers' addresses instead.
            """
    )

    @Option(help: "How long to wait for the machines to answer, in seconds.")
    var seconds = 3.0

    @Flag(help: "Print a JSON array of {name, host, address, port} instead of a table.")
    var json = false

    func validate() throws {
        guard seconds > 0, seconds <= 60 else { throw ValidationError("--seconds \(seconds) is not between 0 and 60") }
    }

    func run() throws {
        let sessions: [AnnouncedSession]
        do {
            sessions = try SessionBrowser.find(seconds: seconds)
        } catch {
            throw CLIError(error.description, fix: nil)
        }
        if json { return try printJSON(sessions) }
        guard !sessions.isEmpty else { return printError("midihub: no sessions announced on the network") }
        let width = sessions.map(\.name.count).max() ?? 0
        for session in sessions {
            print("\(session.name.padding(toLength: width, withPad: " ", startingAt: 0))  \(session.address):\(session.port)  \(session.host)")
        }
    }
}
