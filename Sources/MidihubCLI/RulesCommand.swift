import ArgumentParser
import Control

/// `midihub rules`: the connection rules in force (daemon's, or `--patch`'s / the default's).
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the connection rules (the last matching rule wins).",
        discussion: """
            Asks the running daemon; when none runs (or with --patch), shows the patch's or the \
            embedded default's rules. docs/rules.md has the rule syntax.

            Examples:
              midihub rules
              midihub rules --patch patches/keyboard-split.yaml --json
            """
    )

    @Option(help: "Show this patch's rules instead of the daemon's.")
    var patch: String?

    @Flag(help: "One JSON array of rule objects (as the control protocol's rules.list).")
    var json = false

    func run() throws {
        let view = try SetupCommandSupport.load(patch)
        if json {
            try printJSON(view.rules)
            return
        }
        for rule in view.rules {
            print(rule)
        }
    }
}
