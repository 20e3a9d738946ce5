import ArgumentParser
import Control
import Daemon
import Foundation

/// `midihub nodes`: the graph's nodes with their parameters, from the running daemon or,
/// without one, from `--patch` (or the embedded default).
struct NodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodes",
        abstract: "List the hub's nodes and their parameters.",
        discussion: """
            Asks the running daemon; when none runs (or with --patch), shows the nodes of the \
            patch, or of the embedded default setup.

            Examples:
              midihub nodes
              midihub nodes --patch patches/keyboard-split.yaml --json
            """
    )

    @Option(help: "Show this patch's nodes instead of the daemon's.")
    var patch: String?

    @Flag(help: "One JSON array of node objects (as the control protocol's nodes.list).")
    var json = false

    func run() throws {
        let view = try SetupCommandSupport.load(patch)
        if json {
            try printJSON(view.nodes)
            return
        }
        for node in view.nodes {
            print("\(node.id)  \(node.kind)  \(node.port ?? node.name)")
            for parameter in node.parameters {
                let range = parameter.min.flatMap { min in parameter.max.map { " (\(format(min))…\(format($0)))" } } ?? ""
                print("    \(parameter.name) = \(format(parameter.value)) \(parameter.unit)\(range)")
            }
        }
    }

    private func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// What `nodes`, `graph` and `rules` share: loading the setup and reporting errors.
enum SetupCommandSupport {
    static func load(_ patch: String?) throws -> SetupView {
        do {
            return try SetupView.load(patchPath: patch)
        } catch let error as ControlClientError {
            throw CLIError(error.problem, fix: error.fix)
        } catch let error as CustomStringConvertible where !(error is CLIError) {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
    }

}
