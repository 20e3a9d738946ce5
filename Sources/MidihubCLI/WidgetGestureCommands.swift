import ArgumentParser
import Control
import SetupViews

/// `midihub widgets set NAME VALUE`: moves a widget of the running daemon (`widgets.set`).
struct WidgetSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Move a widget to a value: a parameter, a switch, a scene's index (see 'midihub widgets --help')."
    )

    @Argument(help: "The widget: its target (synth.brightness, trigger.panic, scene), else its title.")
    var name: String

    @Argument(help: "The value: within the parameter's range (clamped), a scene's index for a selector, above 0 fires a button; a negative one after -- (set Filter -- -24).",
              transform: WidgetGestureSupport.value)
    var value: Double

    @Flag(help: "Print the widget after as one JSON object (as widgets.set answers).")
    var json = false

    func run() throws {
        try WidgetGestureSupport.show(WidgetGestureSupport.ask("moving a widget", "set") { try $0.setWidget(name, to: value) }, json: json)
    }
}

/// `midihub widgets press NAME`: presses a widget of the running daemon (`widgets.press`).
struct WidgetPressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "press",
        abstract: "Press a widget: fire a button, toggle a switch, hold a momentary (see 'midihub widgets --help')."
    )

    @OptionGroup var widget: WidgetTouchArguments

    func run() throws {
        try widget.touch("pressing a widget", "press") { try $0.pressWidget($1) }
    }
}

/// `midihub widgets release NAME`: lets a widget of the running daemon go (`widgets.release`).
struct WidgetReleaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: "Let a pressed widget go: a momentary back to its bottom (see 'midihub widgets --help')."
    )

    @OptionGroup var widget: WidgetTouchArguments

    func run() throws {
        try widget.touch("releasing a widget", "release") { try $0.releaseWidget($1) }
    }
}

/// What `widgets press` and `release` take: the widget, and whether to answer in JSON.
struct WidgetTouchArguments: ParsableArguments {
    @Argument(help: "The widget: its target (trigger.panic, synth.vibrato), else its title.")
    var name: String

    @Flag(help: "Print the widget after as one JSON object (as the request answers).")
    var json = false

    /// Sends `request` for the widget to the running daemon and prints the widget after.
    func touch(_ needing: String, _ subcommand: String,
               _ request: (ControlClient, String) throws -> WidgetSummary) throws {
        try WidgetGestureSupport.show(WidgetGestureSupport.ask(needing, subcommand) { try request($0, name) }, json: json)
    }
}

/// What `widgets set`, `press` and `release` share: the daemon asked, the widget shown.
enum WidgetGestureSupport {
    /// The widget after `body`'s request to the running daemon; a refusal is bad input (exit 2),
    /// no daemon or another failure a runtime one (exit 1).
    static func ask(_ needing: String, _ subcommand: String, _ body: (ControlClient) throws -> WidgetSummary) throws -> WidgetSummary {
        try SetupCommandSupport.askDaemon(needing, client: "midihub widgets \(subcommand)", body)
    }

    /// Prints `widget` as `midihub widgets` lists it, or as JSON.
    static func show(_ widget: WidgetSummary, json: Bool) throws {
        if json { return try printJSON(object: widget) }
        print(MappingSummaries.line(widget))
    }

    /// VALUE as a finite number.
    static func value(_ text: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
            throw ValidationError("'\(text)' is not a number (fix: give a value such as 12, -24 or 0.5)")
        }
        return value
    }
}
