import Control
import Foundation
import Synchronization

/// The daemon's log: one line per event on stderr, `2024-05-01T12:00:00.123Z midihub: <message>`
/// (journald keeps it), and the same line as a `log` event to control subscribers; and the
/// daemon's other events for those subscribers.
///
/// Nothing here makes its caller wait: lines go to a writer thread of their own
/// ("midihub-log"), events to another ("midihub-events", which paces `parameter-changed` to 30
/// a second per parameter, `ParameterCoalescer`, and encodes them for the control server). The
/// MIDI input thread hands over through lock-free rings (`HandoffThread`, after
/// `adoptProducer`); a stderr nobody reads fills the ring, and lines past it are dropped and
/// counted (a line says how many once the writer gets through again), while MIDI goes on.
///
/// - Thread: any but render.
public final class DaemonLog: Sendable {
    /// One line as its caller made it: the wall-clock time then, its level and text.
    private struct Line: Sendable {
        let time: Date
        let level: LogLevel
        let message: String
    }

    /// Where events go once attached (the control server's subscribers); only the event thread calls it.
    private final class Publisher: Sendable {
        let subscribers = ControlLock<Subscribers?>(nil, name: "DaemonLog.publisher")
    }

    /// The attached function, boxed: a closure kept in the lock's generic storage would be
    /// re-wrapped in two reabstraction thunks by every `withLock` that hands it out (the
    /// value is `inout`), so each batch of events called through one more pair, until after
    /// twenty minutes of a busy hub the event thread's stack overflowed. A class reference
    /// has one representation, generic or not.
    private final class Subscribers: Sendable {
        let send: @Sendable (ControlEvent) -> Void
        init(_ send: @escaping @Sendable (ControlEvent) -> Void) { self.send = send }
    }

    /// The pacing of `parameter-changed` events, touched only on the event thread.
    private final class Pacing: @unchecked Sendable {
        var coalescer = ParameterCoalescer()
    }

    /// Lines or events that may wait for their thread; past this they are dropped and counted.
    static let capacity = 8192

    private let lines: HandoffThread<Line>
    private let events: HandoffThread<ControlEvent>
    private let publisher: Publisher

    /// - Parameter writer: where lines go (stderr by default; tests collect them). Runs on the
    ///   log's own thread.
    public init(writer: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        lines = HandoffThread(name: "midihub-log", capacity: Self.capacity) { lines, lost, _ in
            for line in lines {
                let prefix = line.level == .info ? "" : "\(line.level.rawValue): "
                writer("\(Self.timestamp(line.time)) midihub: \(prefix)\(TerminalText.line(line.message, limit: 2000))")
            }
            if lost > 0 {
                writer("\(Self.timestamp(Date())) midihub: warning: \(lost) log lines dropped (their reader, stderr or journald, was too slow)")
            }
            return nil
        }
        let publisher = Publisher(), pacing = Pacing()
        self.publisher = publisher
        events = HandoffThread(name: "midihub-events", capacity: Self.capacity) { events, lost, now in
            var out = pacing.coalescer.admit(events, at: now) + pacing.coalescer.due(at: now)
            if lost > 0 { out.append(.dropped(count: lost)) }
            if !out.isEmpty, let subscribers = publisher.subscribers.withLock({ $0 }) {
                for event in out { subscribers.send(event) }
            }
            return pacing.coalescer.nextDue
        }
    }

    deinit {
        lines.stop()
        events.stop()
    }

    /// Also sends each event and line to `publish` (the control server's subscribers), from the
    /// event thread.
    public func attach(_ publish: @escaping @Sendable (ControlEvent) -> Void) {
        publisher.subscribers.withLock { $0 = Subscribers(publish) }
    }

    /// Makes the calling thread — the MIDI input thread, the state's owner — hand its lines
    /// and events over without a lock.
    /// - Thread: owner.
    public func adoptProducer() {
        lines.adoptProducer()
        events.adoptProducer()
    }

    /// The owner's later lines take the lock path again (it is about to stop).
    /// - Thread: owner.
    public func releaseProducer() {
        lines.releaseProducer()
        events.releaseProducer()
    }

    public func info(_ message: String) { write(.info, message) }
    public func warning(_ message: String) { write(.warning, message) }
    public func error(_ message: String) { write(.error, message) }

    /// Sends `event` to the control subscribers (no line on stderr).
    public func publish(_ event: ControlEvent) {
        events.post(event)
    }

    /// Waits until the lines and events posted so far are out (at most a couple of seconds
    /// each: a blocked stderr is not waited for).
    public func flush() {
        lines.flush()
        events.flush()
    }

    private func write(_ level: LogLevel, _ message: String) {
        lines.post(Line(time: Date(), level: level, message: message))
        events.post(.log(level: level, message: message))
    }

    private static func timestamp(_ time: Date) -> String {
        time.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
