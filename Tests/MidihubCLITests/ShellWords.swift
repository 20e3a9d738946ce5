import Foundation

/// Splits a command line into words the way the shell does, by asking the shell
/// (`/bin/sh`, globbing off): quotes, escapes and `$VARIABLES` come out as a user's
/// shell would give them to `midihub`.
enum ShellWords {
    struct Failure: Error, CustomStringConvertible {
        var line: String
        var description: String { "/bin/sh could not split: \(line)" }
    }

    static func split(_ line: String, environment: [String: String] = [:]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "set -f; printf '%s\\0' \(line)"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // ends when sh exits
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(line: line) }
        return data.split(separator: 0, omittingEmptySubsequences: false).dropLast()
            .map { String(decoding: $0, as: UTF8.self) }
    }
}
