import Control
import Foundation

/// `midihub play FILE` while `midihub serve` runs: hands the file to the daemon's transport,
/// which plays it through its graph (no second client on the sound card), and follows it to
/// the end. Ctrl-C stops the transport.
///
/// - Thread: main.
struct DaemonPlayback {
    let path: String
    /// Writes the position line; `nil` when stderr is not a terminal.
    let statusLine: StatusLine?

    /// Plays through the running daemon and waits for the end.
    /// - Returns: `nil` when no daemon runs (the caller plays alone).
    /// - Throws: `CLIError` for a file the daemon refuses, or a daemon that goes away.
    func playIfServing() throws -> FilePlayer.Outcome? {
        let client: ControlClient
        do {
            client = try ControlClient(timeout: 10)
            try client.hello(client: "midihub play")
        } catch {
            if error.isDaemonNotRunning { return nil }
            throw SetupCommandSupport.cliError(error, needing: "playing through the daemon")
        }
        do {
            return try follow(client)
        } catch let error as ControlClientError {
            throw SetupCommandSupport.cliError(error, needing: "playing through the daemon")
        }
    }

    private func follow(_ client: ControlClient) throws -> FilePlayer.Outcome {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        _ = try client.transport(TransportRequest(action: .load, path: absolute))
        var status = try client.transport(TransportRequest(action: .play))
        FileHandle.standardError.write(Data("playing through the running daemon (midihub serve); --alone plays here instead\n".utf8))
        while status.state == "playing" {
            if let signal = SignalTrap.caught {
                _ = try client.transport(TransportRequest(action: .stop))
                statusLine?.finish()
                return .interrupted(signal: signal)
            }
            statusLine?.show(position: status.seconds, duration: status.duration)
            usleep(100_000)
            status = try client.transport(TransportRequest(action: .status))
        }
        statusLine?.finish()
        return .finished
    }
}
