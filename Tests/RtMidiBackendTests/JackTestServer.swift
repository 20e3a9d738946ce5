import CJackTestEnvironment
import Foundation
import Glibc
import Testing
import TestSupport

/// A `jackd -d dummy` server of a test's own, under this process's server name
/// (`midihub-test-PID`), which its libjack (and RtMidi) use through `JACK_DEFAULT_SERVER`,
/// set before `main` (`CJackTestEnvironment`). One runs at a time: the JACK suite is serialized.
///
/// The JACK tests need jackd: when it is missing they fail, naming the install step.
struct JackTestServer {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let name: String
    private let process: Process

    /// Starts the server and waits until `jack_lsp` answers on it.
    static func start() throws -> JackTestServer {
        let jackd = try tool("jackd")
        let name = String(cString: midihub_jack_test_server_name())
        let process = Process()
        process.executableURL = jackd
        process.arguments = ["--no-realtime", "--sync", "-n", name, "-d", "dummy", "-r", "48000", "-p", "256"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = JackTestServer(name: name, process: process)
        try server.waitUntilAnswering()
        return server
    }

    /// Stops the server and waits for it to exit; one that ignores SIGTERM for 10 s is
    /// killed, and the test fails.
    func stop() {
        process.terminate()
        do {
            try waitForExit(of: process, deadline: 10, message: "jackd -n \(name) ignored SIGTERM: killed it")
        } catch {
            Issue.record(error)
        }
    }

    /// Kills the server (SIGKILL, as a crash) and waits for it to exit.
    func kill() {
        Glibc.kill(process.processIdentifier, SIGKILL)
        do {
            try waitForExit(of: process, message: "jackd -n \(name) outlived SIGKILL")
        } catch {
            Issue.record(error)
        }
    }

    /// Connects two ports by their JACK names with `jack_connect`.
    func connect(_ source: String, _ destination: String) throws {
        let status = try Self.runTool("jack_connect", [source, destination])
        guard status == 0 else {
            throw Failure(description: "jack_connect \(source) \(destination) exited with \(status)")
        }
    }

    private func waitUntilAnswering() throws {
        for _ in 0..<200 {
            guard process.isRunning else {
                throw Failure(description: "jackd -n \(name) -d dummy exited with \(process.terminationStatus) at start")
            }
            if try Self.runTool("jack_lsp", []) == 0 { return }
            usleep(50_000)
        }
        stop()
        throw Failure(description: "jackd -n \(name) did not answer jack_lsp within 10 s")
    }

    static func runTool(_ toolName: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = try tool(toolName)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitForExit(of: process, message: "\(toolName) \(arguments.joined(separator: " ")) did not finish: killed it")
        return process.terminationStatus
    }

    static func tool(_ name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        throw Failure(description: "\(name) not found: the JACK tests need jackd2 — run scripts/install-deps (or apt-get install jackd2)")
    }
}

/// Runs `body` against a fresh JACK server and stops the server afterwards.
func withJackServer<T>(_ body: (JackTestServer) throws -> T) throws -> T {
    let server = try JackTestServer.start()
    defer { server.stop() }
    return try body(server)
}
