import Foundation
import TestSupport
import Testing

/// The real `midihub` executable that `swift test` built beside the test bundle, run as a
/// user runs it: arguments, exit status, stdout and stderr.
struct MidihubBinary {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The repository root, for the paths the docs use (`sequences/…`, `patches/…`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../..").standardizedFileURL

    /// `midihub` in the folder of the running test bundle (`.build/debug/`).
    static var path: String { BuiltMidihub.path }

    /// Runs the binary in `directory` (default: the repository root). A run that takes longer
    /// than `deadline` seconds is killed and recorded as a failure: no test waits forever.
    static func run(_ arguments: [String], in directory: URL = repository, deadline: Double = 120,
                    environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        // Output goes to files, not pipes: a pipe nobody reads could stall the process.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + deadline) == .timedOut {
            process.terminate()
            _ = finished.wait(timeout: .now() + 10)
            Issue.record("midihub \(arguments.joined(separator: " ")) did not end within \(Int(deadline)) s; killed")
        }
        let outData = try Data(contentsOf: outURL), errData = try Data(contentsOf: errURL)
        return Result(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }
}
