import Control
import Foundation
import Synchronization

/// The daemon's log: one line per event on stderr, `2024-05-01T12:00:00.123Z midihub: <message>`
/// (journald keeps it), and the same line as a `log` event to control subscribers.
///
/// - Thread: any but render.
public final class DaemonLog: Sendable {
    private let publisher = Mutex<(@Sendable (ControlEvent) -> Void)?>(nil)
    private let writer: @Sendable (String) -> Void

    /// - Parameter writer: where lines go (stderr by default; tests collect them).
    public init(writer: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.writer = writer
    }

    /// Also sends each line to `publish` (the control server's subscribers).
    public func attach(_ publish: @escaping @Sendable (ControlEvent) -> Void) {
        publisher.withLock { $0 = publish }
    }

    public func info(_ message: String) { write(.info, message) }
    public func warning(_ message: String) { write(.warning, message) }
    public func error(_ message: String) { write(.error, message) }

    /// Sends `event` to the control subscribers (no line on stderr).
    public func publish(_ event: ControlEvent) {
        publisher.withLock { $0 }?(event)
    }

    private func write(_ level: LogLevel, _ message: String) {
        let prefix = level == .info ? "" : "\(level.rawValue): "
        writer("\(Self.timestamp()) midihub: \(prefix)\(message)")
        publish(.log(level: level, message: message))
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
