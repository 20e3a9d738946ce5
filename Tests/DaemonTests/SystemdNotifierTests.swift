import Foundation
import Testing
@testable import Daemon

/// `SystemdNotifier` against a real AF_UNIX datagram socket, as systemd listens: by path
/// and by abstract name.
@Suite(.serialized) struct SystemdNotifierTests {
    @Test func readyAndStoppingReachASocketPath() throws {
        let listener = try NotifyListener(name: NotifyListener.temporaryPath())
        let notifier = try SystemdNotifier(socket: listener.name)
        notifier.ready(status: "serving 3 ports, 4 nodes; MIDI-only: no audio")
        #expect(try listener.receive() == "READY=1\nSTATUS=serving 3 ports, 4 nodes; MIDI-only: no audio")
        notifier.stopping(status: "stopping")
        #expect(try listener.receive() == "STOPPING=1\nSTATUS=stopping")
    }

    @Test func readyReachesAnAbstractSocket() throws {
        let listener = try NotifyListener(name: "@midihub-test-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        let notifier = try SystemdNotifier(socket: listener.name)
        notifier.ready(status: "serving")
        #expect(try listener.receive() == "READY=1\nSTATUS=serving")
    }

    /// `WATCHDOG=1` every half of `WATCHDOG_USEC`; `STATUS=` only when it changed, compared
    /// once a second. A `STOPPING=1` sent afterwards proves that the ticks between sent nothing.
    @Test func tickPacesTheWatchdogAndSendsOnlyChangedStatus() throws {
        let listener = try NotifyListener(name: NotifyListener.temporaryPath())
        let notifier = try SystemdNotifier(socket: listener.name, watchdogMicroseconds: 3_000_000)
        #expect(notifier.watchdogInterval == 1.5)
        notifier.ready(status: "a")
        #expect(try listener.receive() == "READY=1\nSTATUS=a")
        notifier.tick(now: 100, status: { "a" })
        #expect(try listener.receive() == "WATCHDOG=1")
        notifier.tick(now: 101, status: { "b" })
        #expect(try listener.receive() == "STATUS=b")
        notifier.tick(now: 101.4, status: { "c" })
        notifier.tick(now: 101.5, status: { "c" })
        #expect(try listener.receive() == "WATCHDOG=1")
        notifier.tick(now: 102.5, status: { "b" })
        notifier.stopping(status: "end")
        #expect(try listener.receive() == "STOPPING=1\nSTATUS=end")
        notifier.tick(now: 103.5, status: { "c" })
        #expect(try listener.receive() == "WATCHDOG=1\nSTATUS=c")
    }

    @Test func withoutWatchdogTickSendsOnlyStatus() throws {
        let listener = try NotifyListener(name: NotifyListener.temporaryPath())
        let notifier = try SystemdNotifier(socket: listener.name)
        #expect(notifier.watchdogInterval == nil)
        notifier.tick(now: 5, status: { "a" })
        #expect(try listener.receive() == "STATUS=a")
    }

    /// The variables systemd sets (`fromEnvironment` reads them, then unsets them so that
    /// programs the hub starts do not inherit them; the tests do not touch the process's
    /// environment, which other threads read meanwhile).
    @Test func theEnvironmentNamesTheSocketAndTheWatchdog() throws {
        let listener = try NotifyListener(name: NotifyListener.temporaryPath())
        let mine = ["NOTIFY_SOCKET": listener.name, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "4242"]
        let notifier = try #require(try SystemdNotifier.from(environment: mine, pid: 4242))
        #expect(notifier.socketName == listener.name)
        #expect(notifier.watchdogInterval == 5)
        #expect(try SystemdNotifier.from(environment: [:], pid: 4242) == nil)
        #expect(try SystemdNotifier.from(environment: ["NOTIFY_SOCKET": ""], pid: 4242) == nil)
        #expect(try SystemdNotifier.from(environment: mine, pid: 1)?.watchdogInterval == nil, "a watchdog for another process")
        var withoutPID = mine
        withoutPID["WATCHDOG_PID"] = nil
        #expect(try SystemdNotifier.from(environment: withoutPID, pid: 1)?.watchdogInterval == 5)
    }

    @Test func anAddressOfAnotherKindIsOneClearError() {
        #expect {
            try SystemdNotifier(socket: "vsock:2:1234")
        } throws: { error in
            (error as? SystemdNotifierError)?.description
                == "ignoring NOTIFY_SOCKET=vsock:2:1234: neither a socket path nor an @abstract name (fix: run under systemd with Type=notify, or unset NOTIFY_SOCKET)"
        }
    }
}

/// A bound AF_UNIX datagram socket, as systemd's notification socket.
private final class NotifyListener {
    /// The socket as `$NOTIFY_SOCKET` names it: a path or `@abstract`.
    let name: String
    private let fd: Int32

    static func temporaryPath() -> String {
        NSTemporaryDirectory() + "midihub-notify-\(getpid())-\(UInt32.random(in: 0 ... .max)).sock"
    }

    init(name: String) throws {
        self.name = name
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        try #require(bound == 0, "bind \(name): \(String(cString: strerror(errno)))")
    }

    deinit {
        close(fd)
        if name.hasPrefix("/") { unlink(name) }
    }

    /// The next datagram, waiting up to 5 s.
    func receive() throws -> String {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 5000) == 1, "no datagram within 5 s")
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, 0)
        try #require(count >= 0)
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
