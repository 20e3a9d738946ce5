import ArgumentParser
import Control
import Remote

/// `midihub remote`: the URL that opens the running daemon's web remote, with its token.
struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Print the URL that opens the hub's web remote in a browser, with its token.",
        discussion: """
            The daemon serves the remote when started with --remote (docs/remote.md). The URL \
            carries the token that every request needs: whoever has it drives the hub, so share \
            it only with the people on stage. On every interface (serve --remote \
            0.0.0.0:8080), prints one URL per address of this machine, the network's first: \
            open that one on a phone on the same network.

            --json prints one object: {"listen":"127.0.0.1:8080","url":"http://127.0.0.1:8080/?token=…","urls":[…]}.

            Examples:
              midihub remote
              midihub remote --json | jq -r .url
            """
    )

    @Flag(help: "Print one JSON object: where it listens, the URL to open and every URL.")
    var json = false

    func run() throws {
        try SetupCommandSupport.askDaemon("the remote's URL", client: "midihub remote") { _ in }
        let info: RemoteInfo
        let token: RemoteToken
        do {
            guard let running = try RemoteInfo.read(for: .resolve()) else {
                throw CLIError("the running daemon serves no web remote", fix: "restart it with 'midihub serve --remote 8080'")
            }
            guard let saved = try RemoteToken.read(at: running.tokenFile) else {
                throw CLIError("the remote's token file \(running.tokenFile) is gone",
                               fix: "restart the daemon: it makes a new one")
            }
            (info, token) = (running, saved)
        } catch let error as RemoteError {
            throw CLIError(error.description, fix: nil)
        }
        let urls = RemoteURL.all(for: info.address, token: token)
        if json {
            return try printJSON(object: Listing(listen: info.address.description, url: urls[0], urls: urls))
        }
        for url in urls { print(url) }
    }

    /// `--json`'s object.
    private struct Listing: Encodable {
        var listen: String
        var url: String
        var urls: [String]
    }
}
