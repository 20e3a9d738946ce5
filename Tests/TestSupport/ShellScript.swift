import Foundation

/// A doc block's shell lines run as written (`/bin/sh -e`), for the tests that run a
/// doc's commands: exit status and everything printed (stdout and stderr together).
public struct ShellScript {
    public var status: Int32
    public var output: String

    /// Runs `script` in `directory` with `environment` added to this process's, under a
    /// deadline (a hang guard).
    public static func run(_ script: String, in directory: URL, environment: [String: String] = [:]) throws -> ShellScript {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-sh-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-ec", script]
        shell.currentDirectoryURL = directory
        shell.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: log)
        shell.standardOutput = handle
        shell.standardError = handle
        shell.standardInput = FileHandle.nullDevice
        try shell.run()
        try waitForExit(of: shell, message: "the shell lines did not finish: \(script)")
        return ShellScript(status: shell.terminationStatus, output: try String(contentsOf: log, encoding: .utf8))
    }
}
