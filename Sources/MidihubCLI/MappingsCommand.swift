import ArgumentParser
import Control
import SetupViews

/// `midihub mappings`: the controller mappings (the daemon's, or `--patch`'s).
struct MappingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mappings",
        abstract: "List the controller mappings and the values they move.",
        discussion: """
            Asks the running daemon; when none runs (or with --patch), shows the patch's \
            mappings, each target at the value the patch gives it. docs/mappings.md has the \
            mapping syntax; 'midihub learn' makes one by moving a control.

            Examples:
              midihub mappings
              midihub mappings --patch patches/controller-knobs.yaml --json
            """
    )

    @Option(help: "Show this patch's mappings instead of the daemon's.")
    var patch: String?

    @Flag(help: "One JSON array of mapping objects (as the control protocol's mappings.list).")
    var json = false

    func run() throws {
        let mappings = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.mappings() }, fromPatch: MappingSummaries.summaries)
        if json {
            try printJSON(mappings)
            return
        }
        if mappings.isEmpty { print("no mappings (docs/mappings.md; 'midihub learn NODE PARAMETER' makes one)") }
        for mapping in mappings {
            print(MappingSummaries.line(mapping))
        }
    }
}
