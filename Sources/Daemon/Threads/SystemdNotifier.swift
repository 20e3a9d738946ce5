import MIDICore
import Foundation
import Synchronization

/// systemd's service notification protocol (`sd_notify(3)`) without libsystemd: one
/// datagram per message, `KEY=value` lines, sent to the AF_UNIX socket named by
/// `$NOTIFY_SOCKET` — a path (`/run/user/1000/systemd/notify`) or an abstract name
/// (`@/org/freedesktop/systemd1/notify/…`). Errors while sending are ignored, as
/// `sd_notify` does: a service manager that stopped listening must not stop the hub.
///
/// The watchdog (`$WATCHDOG_USEC`, set by `WatchdogSec=`) is fed from the MIDI input
/// thread's loop: `WATCHDOG=1` goes out only while that loop keeps turning. The loop only
/// decides what to send; the `sendto` runs on a thread of the notifier's own
/// ("midihub-notify", handed over through a lock-free ring: `adoptProducer`), so a service
/// manager slow to read never holds up MIDI.
///
/// - Thread: any for `stopping`; `ready` and `tick` on one thread, the owner (they keep the
///   pacing, which no lock guards: the MIDI input thread takes none).
public final class SystemdNotifier: @unchecked Sendable {
    /// `$NOTIFY_SOCKET` as given (`@` for an abstract name).
    public let socketName: String
    /// Seconds between two `WATCHDOG=1`: half of `$WATCHDOG_USEC`; `nil` without a watchdog.
    public let watchdogInterval: HostDuration?
    private let socket: NotifySocket
    /// Sends what the owner decided, off its thread, in the order it was posted.
    private let sender: HandoffThread<[String]>
    /// When `WATCHDOG=1` was last sent, when the status was last compared, and the last status sent.
    private var pacing: (lastPing: HostTime, lastStatusCheck: HostTime, status: String) = (.distantPast, .distantPast, "")

    /// How often `tick` asks for the status to compare it with the one sent last.
    public static let statusCheckInterval: HostDuration = 1

    /// The notifier `$NOTIFY_SOCKET` asks for, or `nil` when it is unset (not started by
    /// systemd with `Type=notify`). Unsets `NOTIFY_SOCKET`, `WATCHDOG_USEC` and
    /// `WATCHDOG_PID`, so that programs the hub starts do not inherit them. A watchdog meant
    /// for another process (`$WATCHDOG_PID`) is ignored.
    /// - Throws: `SystemdNotifierError` when the socket is neither a path nor an abstract name.
    /// - Thread: control (main, at start, before other threads run: `unsetenv` is not safe
    ///   while another thread reads the environment).
    public static func fromEnvironment() throws(SystemdNotifierError) -> SystemdNotifier? {
        let environment = ProcessInfo.processInfo.environment
        for name in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(name) }
        return try from(environment: environment, pid: getpid())
    }

    /// The notifier `environment` asks for (`NOTIFY_SOCKET`, `WATCHDOG_USEC`,
    /// `WATCHDOG_PID`) in process `pid`, or `nil` without `NOTIFY_SOCKET`. A watchdog meant
    /// for another process is ignored.
    /// - Throws: `SystemdNotifierError` when the socket is neither a path nor an abstract name.
    public static func from(environment: [String: String], pid: pid_t) throws(SystemdNotifierError) -> SystemdNotifier? {
        guard let socket = environment["NOTIFY_SOCKET"], !socket.isEmpty else { return nil }
        var watchdog = environment["WATCHDOG_USEC"].flatMap { UInt64($0) }
        if let watchdogPID = environment["WATCHDOG_PID"], watchdogPID != String(pid) { watchdog = nil }
        return try SystemdNotifier(socket: socket, watchdogMicroseconds: watchdog)
    }

    /// - Parameters:
    ///   - socket: a socket path, or `@name` for an abstract socket.
    ///   - watchdogMicroseconds: systemd's `WATCHDOG_USEC`; `nil` or 0: no watchdog.
    /// - Throws: `SystemdNotifierError` when `socket` is neither form, too long, or no socket can be made.
    public init(socket: String, watchdogMicroseconds: UInt64? = nil) throws(SystemdNotifierError) {
        var bytes = Array(socket.utf8)
        switch bytes.first {
        case UInt8(ascii: "/"): break
        case UInt8(ascii: "@"): bytes[0] = 0
        default: throw SystemdNotifierError(socket: socket, reason: "neither a socket path nor an @abstract name")
        }
        guard bytes.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) else {
            throw SystemdNotifierError(socket: socket, reason: "the name is too long for a UNIX socket")
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw SystemdNotifierError(socket: socket, reason: "socket(): \(String(cString: strerror(errno)))")
        }
        let target = NotifySocket(fd: fd, address: bytes)
        self.socket = target
        sender = HandoffThread(name: "midihub-notify", capacity: 16) { messages, _, _ in
            for lines in messages { target.send(lines) }
            return nil
        }
        socketName = socket
        watchdogInterval = watchdogMicroseconds.flatMap { $0 > 0 ? .microseconds(Int64(clamping: $0 / 2)) : nil }
    }

    deinit {
        sender.stop()
        close(socket.fd)
    }

    /// Makes the calling thread (the owner) the one that hands notifications over without a lock.
    /// - Thread: owner, first thing.
    public func adoptProducer() {
        sender.adoptProducer()
    }

    /// The calling thread stops handing over through the lock-free ring.
    /// - Thread: owner, last thing.
    public func releaseProducer() {
        sender.releaseProducer()
    }

    /// Hands one notification to the sending thread: `lines` joined by newlines
    /// (`["READY=1", "STATUS=…"]`); it never waits for the socket.
    /// - Thread: any but render.
    public func send(_ lines: [String]) {
        sender.post(lines)
    }

    /// `READY=1` with the first status.
    public func ready(status: String) {
        pacing.status = status
        send(["READY=1", "STATUS=\(status)"])
    }

    /// `STOPPING=1` with a last status, sent before this returns (at most 2 s).
    /// - Thread: any but owner (it waits for the sending thread).
    public func stopping(status: String) {
        send(["STOPPING=1", "STATUS=\(status)"])
        sender.flush()
    }

    /// Called on every turn of the loop whose life the watchdog proves: sends `WATCHDOG=1`
    /// when half of the watchdog period has passed since the last one, and, once every
    /// `statusCheckInterval`, `STATUS=` when `status()` differs from what was sent last.
    /// - Parameter now: the monotonic clock.
    /// - Thread: owner (the MIDI input thread: the daemon's watchdog proves that loop alive).
    public func tick(now: HostTime, status: () -> String) {
        let ping = watchdogInterval.map { now - pacing.lastPing >= $0 } ?? false
        if ping { pacing.lastPing = now }
        let checkStatus = now - pacing.lastStatusCheck >= Self.statusCheckInterval
        if checkStatus { pacing.lastStatusCheck = now }
        var lines: [String] = []
        if ping { lines.append("WATCHDOG=1") }
        if checkStatus {
            let current = status()
            if pacing.status != current { lines.append("STATUS=\(current)") }
            pacing.status = current
        }
        if !lines.isEmpty { send(lines) }
    }
}

/// The notification socket and the address datagrams go to.
/// - Thread: any (`sendto` on a datagram socket).
private struct NotifySocket: Sendable {
    let fd: Int32
    let address: [UInt8]

    /// Sends `lines` joined by newlines as one datagram; an error is ignored, as `sd_notify` does.
    func send(_ lines: [String]) {
        let message = Array(lines.joined(separator: "\n").utf8)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: address) }
        // An abstract name is exactly its bytes; a path may carry its NUL.
        let length = socklen_t(MemoryLayout<sa_family_t>.size + address.count + (address.first == 0 ? 0 : 1))
        _ = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
    }
}

/// `$NOTIFY_SOCKET` names no socket the hub can send to. One line: the problem and the fix.
/// - Thread: any (a plain value).
public struct SystemdNotifierError: Error, CustomStringConvertible {
    public let socket: String
    public let reason: String

    public var description: String {
        "ignoring NOTIFY_SOCKET=\(socket): \(reason) (fix: run under systemd with Type=notify, or unset NOTIFY_SOCKET)"
    }
}
