import ALSA
import Foundation
import MIDICore

/// A failure the CLI reports as one line, `midihub: <problem> (fix: <what to do>)`,
/// on stderr, with its exit code.
///
/// - Thread: any (a plain value).
struct CLIError: Error, CustomStringConvertible {
    /// Exit code for runtime failures: device, I/O.
    static let runtimeFailure: Int32 = 1
    /// Exit code for bad input from the user: unknown or ambiguous port, malformed file, bad hex.
    static let badInput: Int32 = 2

    var problem: String
    var fix: String?
    var exitCode: Int32

    init(_ problem: String, fix: String?, exitCode: Int32 = CLIError.runtimeFailure) {
        self.problem = problem
        self.fix = fix
        self.exitCode = exitCode
    }

    /// Maps the library errors the commands let through; `nil` for others.
    init?(_ error: any Error) {
        switch error {
        case let error as CLIError:
            self = error
        case let error as ALSAError:
            self.init(error.problem, fix: error.fix)
        case let error as PortResolutionError:
            self.init(error.problem, fix: error.fix, exitCode: Self.badInput)
        default:
            return nil
        }
    }

    var description: String {
        guard let fix else { return "midihub: \(problem)" }
        return "midihub: \(problem) (fix: \(fix))"
    }

}
