import ArgumentParser
import Control
import SetupViews

/// `midihub widgets`: what a remote shows, with the values now (`list`, the default), and
/// a widget moved, pressed or let go on the running daemon (`set`, `press`, `release`).
struct WidgetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgets",
        abstract: "List the widgets a remote shows, with their values now; move or press one.",
        discussion: """
            Without a subcommand, lists them: the running daemon's (it answers with no audio \
            running too); when none runs (or with --patch), the patch's at the values the patch \
            gives. 'set NAME VALUE', 'press NAME' and 'release NAME' act on one in the running \
            daemon as a remote does: a slider or knob moves its parameter, a switch goes to its \
            bottom or top (press toggles it), a momentary is at its top while pressed, a button \
            fires its trigger, a selector switches to the scene at an index (0 the first); a \
            label or a meter only shows. NAME is the widget's target as the list shows it \
            (synth.brightness, trigger.panic, scene), else its title. Each prints the widget \
            after; parameter-changed, trigger-fired and scene-changed events follow as for \
            parameters.set, triggers.fire and scenes.switch (docs/mappings.md#widgets).

            Examples:
              midihub widgets
              midihub widgets --patch patches/controller-knobs.yaml --json
              midihub widgets set synth.brightness 12
              midihub widgets set Filter -- -24   # by its title; a negative value after --
              midihub widgets press Vibrato       # a switch: on, and off at the next press
              midihub widgets press Panic         # a button: fires trigger.panic
              midihub widgets set scene 1         # the selector: the second scene, chorus
            """,
        subcommands: [WidgetsListCommand.self, WidgetSetCommand.self, WidgetPressCommand.self, WidgetReleaseCommand.self],
        defaultSubcommand: WidgetsListCommand.self
    )
}

/// `midihub widgets [list]`: the widgets with their values now.
struct WidgetsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the widgets with their values now (see 'midihub widgets --help')."
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
