import ArgumentParser
import Control
import OSCSurface
import SetupViews

/// `midihub osc --list`: the OSC addresses of the running daemon's patch (or `--patch`'s).
struct OSCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "osc",
        abstract: "List the OSC addresses a control surface can send to 'serve --osc'.",
        discussion: """
            With --list, prints each address of the running daemon's patch (or of --patch, or \
            the embedded default when no daemon runs) with the arguments it takes and what it \
            does: every node parameter in its units and as /norm, each scene, each trigger, \
            each widget, the transport, and the fixed addresses (/scene, /connect, /register, \
            /dump, /midi). A space in a name is written _ (docs/osc.md).

            Examples:
              midihub osc --list
              midihub osc --list --patch patches/controller-knobs.yaml --json
            """
    )

    @Flag(help: "List the addresses.")
    var list = false

    @Option(help: "List this patch's addresses instead of the daemon's.")
    var patch: String?

    @Flag(help: "One JSON array of {address, arguments, does} objects.")
    var json = false

    func validate() throws {
        guard list else { throw ValidationError("say what to do: --list prints the addresses (fix: midihub osc --list)") }
    }

    func run() throws {
        let nodes = try SetupCommandSupport.load(patch).nodes
        let scenes = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.scenes() },
                                                     fromPatch: { MappingSummaries.scenes($0.scenes, current: nil) })
        let triggers = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.triggers() }, fromPatch: MappingSummaries.triggers)
        let widgets = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.widgets() }, fromPatch: MappingSummaries.widgets)
        let listing = OSCAddressSpace(nodes: nodes, scenes: scenes, triggers: triggers, widgets: widgets).listing
        if json { return try printJSON(listing) }
        let addressWidth = listing.map(\.address.count).max() ?? 0
        let argumentsWidth = listing.map(\.arguments.count).max() ?? 0
        for entry in listing {
            print(entry.address.padding(addressWidth) + "  " + entry.arguments.padding(argumentsWidth) + "  " + entry.does)
        }
    }
}

extension String {
    /// The string with spaces after it up to `width` characters.
    fileprivate func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
}
