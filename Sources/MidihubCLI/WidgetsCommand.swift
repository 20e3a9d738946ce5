import ArgumentParser
import Control
import SetupViews

/// `midihub widgets`: what a remote shows, with the values now.
struct WidgetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgets",
        abstract: "List the widgets a remote shows, with their values now.",
        discussion: """
            Asks the running daemon (it answers with no audio running too); when none runs \\
            (or with --patch), shows the patch's widgets at the values the patch gives. A \\
            remote moves a slider with parameters.set, presses a button with triggers.fire and \\
            picks a scene with scenes.switch, and follows the parameter-changed, \\
            trigger-fired and scene-changed events (docs/mappings.md#widgets).

            Examples:
              midihub widgets
              midihub widgets --patch patches/controller-knobs.yaml --json
            """
    )

    @Option(help: "Show this patch's widgets instead of the daemon's.")
    var patch: String?

    @Flag(help: "One JSON array of widget objects (as the control protocol's widgets.list).")
    var json = false

    func run() throws {
        let widgets = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.widgets() }, fromPatch: MappingSummaries.widgets)
        if json { return try printJSON(widgets) }
        if widgets.isEmpty { print("no widgets (docs/mappings.md#widgets)") }
        for widget in widgets { print(MappingSummaries.line(widget)) }
    }
}
