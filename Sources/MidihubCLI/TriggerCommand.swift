import ArgumentParser
import Control
import SetupViews

/// `midihub trigger [NAME]`: fires a trigger of the running daemon, or lists the triggers.
struct TriggerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trigger",
        abstract: "Fire a trigger (panic, tap tempo, a patch's own), or list the triggers.",
        discussion: """
            With NAME, the running daemon fires it: 'panic' ends every sounding note, 'tap \\
            tempo' sets the tempo from the taps, a patch's trigger sends its MIDI or switches \\
            its scene. The transport's: 'play' plays or pauses the loaded sequence, 'stop' \\
            stops, 'rewind' goes back to its start (docs/transport.md), disabled while the \\
            hub has no sequence; 'record' starts a take of what the ports play and, fired \\
            again, writes it to recordings/ beside the state; 'next' is always disabled (no \\
            playlists yet). Firing a disabled trigger is an error. Without NAME, lists them with \\
            their states (normal, selected, disabled, alternate): the daemon's, or --patch's. \\
            A mapped pad fires one through 'trigger.NAME' (docs/mappings.md#triggers).

            Examples:
              midihub trigger --patch patches/controller-knobs.yaml
              midihub trigger panic
            """
    )

    @Argument(help: "The trigger to fire.")
    var name: String?

    @Option(help: "List this patch's triggers instead of the daemon's.")
    var patch: String?

    @Flag(help: "JSON: the trigger fired as one object, or the list (as triggers.list).")
    var json = false

    func validate() throws {
        if name != nil, patch != nil {
            throw ValidationError("a patch's triggers can be listed, not fired (fix: drop --patch, or drop the name)")
        }
    }

    func run() throws {
        guard let name else {
            let triggers = try SetupCommandSupport.listing(patch, fromDaemon: { try $0.triggers() }, fromPatch: MappingSummaries.triggers)
            if json { return try printJSON(triggers) }
            for trigger in triggers { print(MappingSummaries.line(trigger)) }
            return
        }
        let trigger = try SetupCommandSupport.askDaemon("firing a trigger", client: "midihub trigger") { try $0.fireTrigger(name) }
        if json { return try printJSON(object: trigger) }
        print(MappingSummaries.line(trigger))
    }
}
