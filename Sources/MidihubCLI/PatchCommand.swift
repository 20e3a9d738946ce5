import ArgumentParser
import Control
import Foundation

/// `midihub patch load FILE`: the running daemon switches to a patch.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Switch the running daemon to a patch.",
        discussion: """
            'patch load FILE': the daemon reads FILE, checks all of it and only then replaces \
            its nodes, routes, rules, mappings and scenes; notes cut off by the change end \
            cleanly. A broken patch changes nothing and is reported as 'FILE:LINE:COLUMN: \
            reason (fix: …)'. From then on the daemon reloads FILE when it changes on disk. \
            Prints the new setup's size.

            Examples:
              midihub patch load patches/keyboard-split.yaml
              midihub patch load patches/controller-knobs.yaml --json
            """,
        subcommands: [PatchLoadCommand.self]
    )
}

/// `midihub patch load FILE`.
struct PatchLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Validate a patch and make it the running daemon's setup (see 'midihub patch --help')."
    )

    @Argument(help: "The patch file (YAML, see docs/patch-format.md).")
    var file: String

    @Flag(help: "Print the setup now running as one JSON object (as patch.load's result).")
    var json = false

    func run() throws {
        let path = URL(fileURLWithPath: file).standardizedFileURL.path
        let setup = try SetupCommandSupport.askDaemon("loading a patch", client: "midihub patch load", timeout: 30) {
            try $0.loadPatch(PatchSource(path: path))
        }
        if json { return try printJSON(object: setup) }
        let routes = setup.connections.filter { $0.sourceEndpoint.nodeID != nil }.count
        print("loaded \(file): \(setup.nodes.count) nodes, \(routes) routes, \(setup.rules.count) rules")
    }
}
