internal import CPluginChild
import Foundation
import Glibc
import Hub
import Synchronization

/// The child process of one isolated plugin node: starts it (the shared region's memfd as
/// its descriptor 3, a control socket as 4), answers the node's control requests through it,
/// and watches it on a thread of its own — a pidfd tells of its end at once, the render
/// thread's `waitingSince` of a block it has left unanswered too long (then it is killed).
/// A child that ended is started again with the node's last state and values, at once the
/// first time, backing off when it ends again soon after it started, given up after
/// `PluginIsolation.maximumRestarts` such ends in a row.
///
/// - Thread: any (`alive`, `generation` and `waitingSince` atomics; the child behind a lock;
///   the watching on its own thread).
final class PluginChildWatcher: @unchecked Sendable {
    let region: IsolationRegion
    /// Whether a child runs the plugin now (the render thread hands it blocks only then).
    let alive = Atomic<Bool>(false)
    /// Counts the children started: the render thread starts afresh with a new one.
    let generation = Atomic<UInt32>(0)
    /// When the render thread handed the child a block it has not answered yet (monotonic
    /// ns), else 0.
    let waitingSince = Atomic<Int64>(0)

    private struct Child {
        let pid: pid_t
        let pidfd: Int32
        let channel: PluginChildChannel
    }

    private let memory: Int32
    private let child = Mutex<Child?>(nil)
    private let stopping = Atomic<Bool>(false)
    /// The node, to name in its news (gone once the node is: its watcher stops then).
    private weak var node: IsolatedPluginNode?
    private let host: InstalledPlugins
    private let name: String
    private let makeStart: () -> PluginChildStart
    private var watching: Thread?
    private let watched = DispatchSemaphore(value: 0)

    /// A shared region for blocks of `maxFrames`; nil when the memory cannot be had.
    init?(node: IsolatedPluginNode, maxFrames: Int, eventCapacity: Int, start: @escaping () -> PluginChildStart) {
        let size = IsolationRegion.size(maxFrames: maxFrames, eventCapacity: eventCapacity)
        let memory = midihub_shared_memory("midihub-plugin", Int64(size))
        guard memory >= 0 else { return nil }
        guard let region = IsolationRegion(descriptor: memory, maxFrames: maxFrames, eventCapacity: eventCapacity) else {
            close(memory)
            return nil
        }
        (self.memory, self.region, self.node, host, name, makeStart) = (memory, region, node, node.host, node.descriptor.name, start)
    }

    var childProcess: Int32? { child.withLock { $0?.pid } }

    /// Starts the first child and, when it runs, the watching; the reason when it did not
    /// start. Every child is started from the watching thread, which lives as long as the node:
    /// a child dies with the thread that started it (`PR_SET_PDEATHSIG` follows the thread), and
    /// the control side's threads come and go.
    /// - Thread: control.
    func startFirst() -> PluginRefusal? {
        let first = Mutex<Start?>(nil), started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            defer { watched.signal() }
            let start = startChild()
            first.withLock { $0 = start }
            started.signal()
            if case .refused = start { return }
            watch()
        }
        thread.name = "midihub-plugin-watch"
        thread.start()
        watching = thread
        started.wait()
        switch first.withLock({ $0 }) {
        case .refused(let refusal)?, .ended(let refusal)?: return refusal
        case .running?, nil: return nil
        }
    }

    /// How a child's start went: it runs; it refused the plugin (it loads no better when
    /// started again); it ended or did not answer (a crash as it started: started again).
    private enum Start {
        case running, refused(PluginRefusal), ended(PluginRefusal)
    }

    /// Kills the child and ends the watching; unmaps the region.
    /// - Thread: control (or the release queue).
    func stop() {
        stopping.store(true, ordering: .releasing)
        alive.store(false, ordering: .releasing)
        midihub_futex_wake(region.response)
        if let pid = child.withLock({ $0?.pid }) { kill(pid, SIGKILL) }
        if watching != nil { watched.wait() }
        endChild()
        region.unmap()
        close(memory)
    }

    /// The child's reply to `request`, or nil when no child runs or it did not answer in time.
    /// - Thread: control (or the state writer's queue).
    func ask(_ request: PluginChildRequest) -> PluginChildReply? {
        child.withLock { child in
            guard let child, alive.load(ordering: .acquiring), child.channel.send(request) else { return nil }
            return child.channel.receive(PluginChildReply.self)
        }
    }

    /// Starts a child and waits for it to load the plugin.
    private func startChild() -> Start {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            return .ended(PluginRefusal("no socket for its process (\(String(cString: strerror(errno))))", fix: "check the daemon's limits"))
        }
        var argv = [host.isolation.executable, "plugin-child"].map { text in text.withCString { strdup($0) } } + [nil]
        var environment = Self.environment.map { text in text.withCString { strdup($0) } } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        let pid = midihub_spawn_child(host.isolation.executable, &argv, &environment, memory, pair[1])
        close(pair[1])
        guard pid > 0 else {
            close(pair[0])
            return .ended(PluginRefusal("its process did not start (\(String(cString: strerror(errno))))",
                                        fix: "check that \(host.isolation.executable) is midihub"))
        }
        let channel = PluginChildChannel(descriptor: pair[0])
        let made = Child(pid: pid, pidfd: midihub_pidfd(pid), channel: channel)
        child.withLock { $0 = made }
        channel.setReceiveTimeout(seconds: 60)
        let reply = channel.send(PluginChildRequest.start(makeStart())) ? channel.receive(PluginChildReply.self) : nil
        channel.setReceiveTimeout(seconds: 10)
        guard let reply else {
            return .ended(PluginRefusal("its process ended or did not answer as it started",
                                        fix: "run 'midihub plugins info' on it; the daemon's log has what the plugin said"))
        }
        if let problem = reply.problem { return .refused(PluginRefusal(problem, fix: reply.fix ?? "use another plugin")) }
        waitingSince.store(0, ordering: .releasing)
        generation.add(1, ordering: .releasing)
        alive.store(true, ordering: .releasing)
        return .running
    }

    /// The child's environment: this process's, without Swift's backtracer (a crashing
    /// plugin's child ends at once, not after seconds of printing its stack).
    private static let environment: [String] = ProcessInfo.processInfo.environment
        .filter { $0.key != "SWIFT_BACKTRACE" }.map { "\($0.key)=\($0.value)" } + ["SWIFT_BACKTRACE=enable=no"]

    /// Waits for the child's end (reaping it) and closes its descriptors.
    private func endChild() {
        guard let ended = child.withLock({ child in defer { child = nil }; return child }) else { return }
        kill(ended.pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(ended.pid, &status, 0) < 0 && errno == EINTR {}
        close(ended.pidfd)
        close(ended.channel.descriptor)
    }

    /// The watching: each child's end, told and followed by the next child, until `stop`.
    private func watch() {
        var quickEnds = 0
        while !stopping.load(ordering: .acquiring) {
            guard let running = child.withLock({ $0 }), alive.load(ordering: .acquiring) else {
                // No child runs: the first did not start, or a restart did not. Counted as a quick end.
                endChild()
                guard restart(after: &quickEnds, ended: midihub_monotonic_nanoseconds(), startedAt: 0) else { return }
                continue
            }
            let startedAt = midihub_monotonic_nanoseconds()
            let reason = waitForEnd(running)
            alive.store(false, ordering: .releasing)
            midihub_futex_wake(region.response)  // a render thread waiting for it stops waiting
            if stopping.load(ordering: .acquiring) { return }
            var status: Int32 = 0
            while waitpid(running.pid, &status, 0) < 0 && errno == EINTR {}
            let ended = midihub_monotonic_nanoseconds()
            child.withLock { $0 = nil }
            close(running.pidfd)
            close(running.channel.descriptor)
            let event = reason ?? Self.crash(status: status)
            host.report(Self.line(event, plugin: name, hangSeconds: host.isolation.hangSeconds))
            tell(event)
            guard restart(after: &quickEnds, ended: ended, startedAt: startedAt) else { return }
        }
    }

    /// Starts the next child, after a pause when the last ended soon after it started; false
    /// once given up (or stopping).
    private func restart(after quickEnds: inout Int, ended: Int64, startedAt: Int64) -> Bool {
        let quick = startedAt == 0 || ended - startedAt < 5_000_000_000
        quickEnds = quick ? quickEnds + 1 : 0
        let limit = host.isolation.maximumRestarts
        if quickEnds > limit {
            host.report("LV2 plugin '\(name)' (isolated) ended \(quickEnds) times in a row soon after it started; "
                             + "its node stays silent (fix: remove the node, or load it with another preset or plugin)")
            tell(.gaveUp(tries: quickEnds))
            return false
        }
        if quickEnds > 1 { Thread.sleep(forTimeInterval: min(0.1 * pow(2, Double(quickEnds - 2)), 2)) }
        guard !stopping.load(ordering: .acquiring) else { return false }
        switch startChild() {
        case .running: break
        case .refused(let refusal):
            host.report("LV2 plugin '\(name)' (isolated) did not start again: \(refusal.problem); "
                             + "its node stays silent (fix: \(refusal.fix))")
            endChild()
            tell(.gaveUp(tries: quickEnds))
            return false
        case .ended(let refusal):
            host.report("LV2 plugin '\(name)' (isolated) did not start again: \(refusal.problem)")
            endChild()
            return !stopping.load(ordering: .acquiring)
        }
        let after = Double(midihub_monotonic_nanoseconds() - ended) / 1e9
        host.report("LV2 plugin '\(name)' (isolated) runs again, with its last state and values "
                         + "(\(String(format: "%.2f", after)) s after it stopped)")
        tell(.restarted(after: after))
        return true
    }

    private func tell(_ event: PluginChildEvent) {
        if let node { host.tell(node, event) }
    }

    /// Waits until the child ends (nil: `waitpid` tells how) or is taken for hung (killed: `.hung`).
    private func waitForEnd(_ running: Child) -> PluginChildEvent? {
        let hangLimit = Int64(host.isolation.hangSeconds * 1e9)
        var poller = pollfd(fd: running.pidfd, events: Int16(POLLIN), revents: 0)
        while !stopping.load(ordering: .acquiring) {
            if poll(&poller, 1, 20) > 0 { return nil }
            let since = waitingSince.load(ordering: .acquiring)
            if since != 0, midihub_monotonic_nanoseconds() - since > hangLimit {
                kill(running.pid, SIGKILL)
                return .hung
            }
        }
        return nil
    }

    /// How a child that ended did: its signal's name, or its exit status.
    static func crash(status: Int32) -> PluginChildEvent {
        let signal = status & 0x7F
        guard signal != 0 else { return .crashed(signal: nil, status: (status >> 8) & 0xFF) }
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGKILL: "SIGKILL", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
                                      SIGILL: "SIGILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP"]
        return .crashed(signal: names[signal] ?? "signal \(signal)", status: nil)
    }

    /// The log line of a child's end.
    static func line(_ event: PluginChildEvent, plugin: String, hangSeconds: Double) -> String {
        switch event {
        case .crashed(let signal?, _):
            "LV2 plugin '\(plugin)' (isolated) crashed (\(signal)); its node is silent until it runs again (the rest of the hub plays on)"
        case .crashed(nil, let status):
            "LV2 plugin '\(plugin)' (isolated) ended (exit status \(status ?? 0)); its node is silent until it runs again"
        case .hung:
            "LV2 plugin '\(plugin)' (isolated) stopped answering for \(hangSeconds) s and was killed; its node is silent until it runs again"
        case .restarted, .gaveUp:
            ""
        }
    }
}
