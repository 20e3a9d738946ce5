import Foundation
import RtMidiBackend
import Testing
import TestSupport

/// A JACK program the docs name (fluidsynth, jack_midiseq), run on the test's server as
/// the real peer of an example; what it prints goes to a file the test reads.
struct JackPeer {
    let process: Process
    let log: URL

    /// Starts `tool` with `arguments` and waits until its JACK MIDI port `port` (a
    /// `jack:CLIENT:PORT` name) is listed.
    static func start(_ tool: String, _ arguments: [String], port: String) throws -> JackPeer {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-\(tool)-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw JackTestServer.Failure(description: "cannot create \(log.path)")
        }
        let process = Process()
        process.executableURL = try JackTestServer.tool(tool)
        process.arguments = arguments
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let peer = JackPeer(process: process, log: log)
        let lister = try JackMIDIClient(clientName: "midihub-test-lister")
        let name = try JackPortName(parsing: port)
        if try !peer.poll(for: .seconds(10), { let ports = try lister.ports(); return ports.sources.contains(name) || ports.destinations.contains(name) }) {
            peer.stop()
            throw JackTestServer.Failure(description: "\(tool) \(arguments.joined(separator: " ")) made no port \(port) within 10 s")
        }
        return peer
    }

    /// Whether what the peer printed has a line containing every one of `fields`, within
    /// `limit` (a deadline, not a timing check).
    func printsLine(with fields: [String], within limit: Duration = .seconds(10)) -> Bool {
        poll(for: limit) {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").contains { line in fields.allSatisfy { line.contains($0) } }
        }
    }

    /// Ends the peer (SIGKILL: these programs may not heed SIGTERM) and waits for it;
    /// removes its log.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        do {
            try waitForExit(of: process, message: "\(process.executableURL?.lastPathComponent ?? "peer") outlived SIGKILL")
        } catch {
            Issue.record(error)
        }
        try? FileManager.default.removeItem(at: log)
    }

    /// Polls `condition` every 10 ms until it holds or `limit` passed.
    private func poll(for limit: Duration, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return false
    }
}
