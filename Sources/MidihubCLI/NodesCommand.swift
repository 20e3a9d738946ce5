import ArgumentParser
import Control
import Foundation
import Hub
import SetupViews

/// `midihub nodes`: the graph's nodes with their parameters, from the running daemon or,
/// without one, from `--patch` (or the embedded default).
struct NodesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nodes",
        abstract: "List the hub's nodes and their parameters.",
        discussion: """
            Asks the running daemon; when none runs (or with --patch), shows the nodes of the \
            patch, or of the embedded default setup. With --types, lists every node type a \
            patch or 'nodes.add' can name, with its parameters' ranges and defaults.

            Examples:
              midihub nodes
              midihub nodes --patch patches/keyboard-split.yaml --json
              midihub nodes --types
            """
    )

    @Option(help: "Show this patch's nodes instead of the daemon's.")
    var patch: String?

    @Flag(help: "List every node type instead, each with its parameters at their defaults.")
    var types = false

    @Flag(help: "One JSON array of node objects (as the control protocol's nodes.list).")
    var json = false

    func validate() throws {
        if types, patch != nil {
            throw ValidationError("--types lists the types every setup can use, not a patch's nodes (fix: drop --patch, or drop --types)")
        }
    }

    func run() throws {
        let nodes = types ? try SetupCommandSupport.nodeTypes() : try SetupCommandSupport.load(patch).nodes
        if json {
            try printJSON(nodes)
            return
        }
        for node in nodes {
            print(types ? "\(node.id)  \(node.kind)" : "\(node.id)  \(node.kind)  \(node.port ?? node.name)")
            Self.printParameters(of: node)
        }
    }

    /// One line per parameter of `node`: name, value, unit and range — or, for an
    /// enumeration or a toggle, the value's name and the names it takes.
    static func printParameters(of node: NodeSummary) {
        func format(_ value: Double) -> String {
            value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
        }
        for parameter in node.parameters {
            if parameter.enumeration == true, let choices = parameter.choices {
                let value = choices.first { $0.value == parameter.value }?.label ?? format(parameter.value)
                print("    \(parameter.name) = \(value) (\(choices.map(\.label).joined(separator: ", ")))")
                continue
            }
            let range = parameter.min.flatMap { min in parameter.max.map { " (\(format(min))…\(format($0)))" } } ?? ""
            print("    \(parameter.name) = \(format(parameter.value)) \(parameter.unit)\(range)")
        }
    }
}

/// What `nodes`, `graph` and `rules` share: loading the setup and reporting errors.
enum SetupCommandSupport {
    static func load(_ patch: String?) throws -> SetupView {
        try reportingErrors { try SetupView.load(patchPath: patch) }
    }

    /// One list of the control surface: the daemon's (`fromDaemon`), or `--patch`'s (or the
    /// embedded default's) when no daemon runs or a patch is named.
    static func listing<Value>(_ patch: String?, fromDaemon: (ControlClient) throws -> Value,
                               fromPatch: @escaping (Patch) -> Value) throws -> Value {
        try reportingErrors { try SetupView.listing(patchPath: patch, fromDaemon: fromDaemon, fromPatch: { patch, _ in fromPatch(patch) }) }
    }

    static func nodeTypes() throws -> [NodeSummary] {
        try reportingErrors { try SetupView.nodeTypes() }
    }

    /// Runs `body` with a client of the running daemon, which `needing` (e.g. "switching
    /// scenes") requires; its refusals are bad input (exit 2), other failures runtime ones.
    static func askDaemon<Value>(_ needing: String, client name: String, timeout: Double = 10,
                                 _ body: (ControlClient) throws -> Value) throws -> Value {
        do {
            let client = try ControlClient(timeout: timeout)
            try client.hello(client: name)
            return try body(client)
        } catch let error as ControlClientError {
            throw cliError(error, needing: needing)
        }
    }

    /// `error` as a one-line CLI error: a refused request is bad input (exit 2).
    static func cliError(_ error: ControlClientError, needing: String) -> CLIError {
        if error.isDaemonNotRunning { return CLIError("\(needing) needs the running daemon", fix: "start it with 'midihub serve'") }
        if case .rejected = error { return CLIError(error.problem, fix: error.fix, exitCode: CLIError.badInput) }
        return CLIError(error.problem, fix: error.fix)
    }

    /// `body`'s errors as one-line CLI errors.
    private static func reportingErrors<Value>(_ body: () throws -> Value) throws -> Value {
        do {
            return try body()
        } catch let error as ControlClientError {
            throw CLIError(error.problem, fix: error.fix)
        } catch let error as CustomStringConvertible where !(error is CLIError) {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
    }

}
