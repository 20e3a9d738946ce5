import ArgumentParser
import SetupViews

/// `midihub graph`: a text picture of the graph (daemon's, or `--patch`'s / the default's).
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the hub's graph as text.",
        discussion: """
            Asks the running daemon; when none runs (or with --patch), draws the patch or the \
            embedded default.

            Examples:
              midihub graph
              midihub graph --patch patches/keyboard-split.yaml
            """
    )

    @Option(help: "Draw this patch instead of the daemon's graph.")
    var patch: String?

    func run() throws {
        let view = try SetupCommandSupport.load(patch)
        print("# \(view.origin)")
        print(GraphPicture.render(nodes: view.nodes, connections: view.connections))
    }
}
