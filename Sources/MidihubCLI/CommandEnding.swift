import ArgumentParser
import Foundation

/// How a command that threw ends: the text it prints, where, and the exit status.
///
/// Help and `--version` go to stdout with status 0. Everything else is one line on stderr,
/// `midihub: <problem> (fix: <what to do>)`: argument errors (an unknown option, a bad
/// value, a missing argument) exit 2 like any other bad input; the errors the commands
/// know (`CLIError` and the library errors it maps) keep their own status; anything else
/// is a runtime failure, 1. An `ExitCode` a command throws (130 after Ctrl-C) ends
/// silently with that status: the command has already said what happened.
///
/// - Thread: any (a plain value).
struct CommandEnding: Equatable {
    var text: String?
    var toStandardError: Bool
    var exitCode: Int32

    init(_ error: any Error, arguments: [String]) {
        if let known = CLIError(error) {
            self.init(text: known.description, toStandardError: true, exitCode: known.exitCode)
            return
        }
        if let exit = error as? ExitCode {
            self.init(text: nil, toStandardError: true, exitCode: exit.rawValue)
            return
        }
        let status = Midihub.exitCode(for: error)
        if status == .success {  // --help, help SUBCOMMAND, --version
            self.init(text: Midihub.fullMessage(for: error), toStandardError: false, exitCode: 0)
            return
        }
        let message = Self.oneLine(Midihub.message(for: error))
        if status == .validationFailure {
            let line = message.contains("(fix: ")
                ? "midihub: \(message)"
                : "midihub: \(message) (fix: see '\(Self.helpCommand(for: arguments))')"
            self.init(text: line, toStandardError: true, exitCode: CLIError.badInput)
        } else {
            self.init(text: "midihub: \(message)", toStandardError: true, exitCode: CLIError.runtimeFailure)
        }
    }

    init(text: String?, toStandardError: Bool, exitCode: Int32) {
        self.text = text
        self.toStandardError = toStandardError
        self.exitCode = exitCode
    }

    /// `midihub help SUBCOMMAND` for the subcommand the arguments name, else `midihub --help`.
    static func helpCommand(for arguments: [String]) -> String {
        let names = Midihub.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let subcommand = arguments.first(where: names.contains) else { return "midihub --help" }
        return "midihub help \(subcommand)"
    }

    /// ArgumentParser's message on one line: its first line, without the "Error: " prefix it
    /// sometimes adds and without the help lines it appends for a missing argument.
    static func oneLine(_ message: String) -> String {
        var line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? message
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        return line.trimmingCharacters(in: .whitespaces)
    }
}
